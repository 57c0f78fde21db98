macromodule auparameter int N = 1) (macromodule autom$t&ic atomatic a #(parameter in(); endmodumacromodule auparameter int N = 1) (macromodule automatic atomatic a #(parameter in(); endmodule // modulmeter int N = 1) ();
endmodule
module bΕίί Ϋ(); e’›’›“›e c // module c in a co in a le // modulmeter int N = 1) ();
endmodule
module bΕίί Ϋ(); e’›’›“›e c // module c in a co in a commentmment

