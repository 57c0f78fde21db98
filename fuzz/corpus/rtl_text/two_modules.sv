macromodule automatic a #(parameter int N = 1) ();
endmodule
module b; a u_a (); endmodule // module c in a comment
