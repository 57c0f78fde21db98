// credit_link's signals that the simulation's probe (credit_link_probe.sv) and the formal proof's
// checker (formal/credit_link_checker.sv) read by name, each declared once, here. The probe's and
// the checker's port lists and their binds are this list; scripts/mutation.py keeps and compares
// the nets it names. Widths are in the reader's parameters (NCH, NLANE, NPOOL, NRET; the proof's
// also W, L, FW, RET_STAGES and MW); a per-pool count is 16 bits a pool, pool p at [p*16 +: 16].
//
// Include it after defining the five macros; each entry expands to its text, which begins with
// a comma (it follows a port or a connection). All five are undefined at the end.
//   CL_PROBE_IN(name, msb)    an input of credit_link the probe reads
//   CL_PROBE_NET(name, msb)   an output or internal net the probe reads (and the observation)
//   CL_PROBE_HOOK(name, msb)  a net the probe reads to know when its checks stand aside; it
//                             reaches no observation, so a mutation of it alone is not compared
//   CL_PROOF_IN(name, msb)    an input of credit_link only the proof reads
//   CL_PROOF_NET(name, msb)   an output or internal net only the proof reads (the observation
//                             reads it too: the testbench top brings it out)
// Adding a net the probe reads: one line here (and the net in credit_link.sv).
`CL_PROBE_NET(grant, NCH-1)               // the arbiter's grant this cycle
`CL_PROBE_NET(eligible, NCH-1)            // channels with a head packet and all its credits
`CL_PROBE_NET(send, 0)                    // a flit leaves the sender
`CL_PROBE_NET(send_lane, 7)               // ... for this lane
`CL_PROBE_NET(in_packet, 0)               // a packet's later flits are being sent
`CL_PROBE_NET(flits_left, 16)             // ... this many after this one
`CL_PROBE_NET(pop, NLANE-1)               // a lane's consumer takes its head flit
`CL_PROBE_IN(flush, NPOOL-1)              // the flush input, per pool
`CL_PROBE_IN(return_busy, NRET-1)         // reverse traffic holds a return path
`CL_PROBE_NET(credits, NPOOL*16-1)        // the sender's counter, per pool
`CL_PROBE_NET(reserved, NPOOL*16-1)       // taken at a grant for flits not sent yet
`CL_PROBE_NET(fwd_flits, NPOOL*16-1)      // flits on the forward path
`CL_PROBE_NET(slots_freeing, NPOOL*16-1)  // popped, not freed yet (FREE_DELAY)
`CL_PROBE_NET(pending_returns, NPOOL*16-1)   // freed, waiting for their batch
`CL_PROBE_NET(return_waiting, NPOOL*16-1) // released, waiting for a return slot (or CR - CS)
`CL_PROBE_NET(return_flight, NPOOL*16-1)  // on the return path (or CS - R)
`CL_PROBE_NET(occupancy, NLANE*16-1)      // flits a lane holds
`CL_PROBE_NET(overflow, NLANE-1)          // a flit arrives at a full lane
`CL_PROBE_NET(arrive, 0)                  // a flit leaves the last forward stage
`CL_PROBE_NET(arrive_lane, 7)             // ... into this lane
`CL_PROBE_NET(policy_flush, NPOOL-1)      // a pool's batch is flushed this cycle
`CL_PROBE_NET(update_refused, NPOOL-1)    // recovery: an arriving update is refused
`CL_PROBE_NET(return_message, NPOOL-1)    // a message for the pool enters the return path
`CL_PROBE_HOOK(fault_dropped, NPOOL-1)    // an injected fault dropped the pool's arriving message
`CL_PROBE_HOOK(fault_added, NPOOL-1)      // ... or made it larger
`CL_PROBE_HOOK(owes, NPOOL-1)             // shared return path: the pool has credits to send
`CL_PROOF_IN(have, NCH-1)
`CL_PROOF_IN(tag, NCH*W-1)
`CL_PROOF_IN(drain, NCH-1)
`CL_PROOF_IN(fault_drop, NPOOL-1)
`CL_PROOF_IN(fault_add, 15)
`CL_PROOF_NET(send_payload, W-1)
`CL_PROOF_NET(pop_payload, NLANE*W-1)
`CL_PROOF_NET(can_send, NPOOL-1)
`CL_PROOF_NET(credits_arriving, NPOOL*16-1)
`CL_PROOF_NET(credits_returned, NPOOL*16-1)
`CL_PROOF_NET(released_total, NPOOL*16-1) // recovery: CR, CS and R per pool
`CL_PROOF_NET(sent_total, NPOOL*16-1)
`CL_PROOF_NET(accepted_total, NPOOL*16-1)
`CL_PROOF_NET(fwd_stages, L*FW-1)         // the forward pipeline's stages {valid, lane, payload}
`CL_PROOF_NET(ret_stages, NRET*RET_STAGES*MW-1)   // the return pipelines' stages
`undef CL_PROBE_IN
`undef CL_PROBE_NET
`undef CL_PROBE_HOOK
`undef CL_PROOF_IN
`undef CL_PROOF_NET
