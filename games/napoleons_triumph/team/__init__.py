"""Team play, rulebook chapter 19 (digest napoleons-triumph-team.md, rule ids NT-TEAM-n).

Built in pieces, each a pure module with its own tests; the engine still refuses team roles
(NT-TEAM in scenario.roles_of) until the pieces are wired into its turn, prompts and views:
- model.py: teams, ranked seats and corps assignment (NT-TEAM-1, -2, -5, -7)
- phases.py: the team layer's phases, conferences and their chat, ranks, the communication ban,
  the shared result (NT-TEAM-1..13, -45; digest 3.2, 3.7); its one import for other code, which
  re-exports its parts: team_state.py (phases, dataclasses, JSON round-trip), actions.py (the
  team actions and payloads), chat.py (chat and transcripts), phase_gate.py (`refusal` /
  `may_act`), conference.py (ranks, corps, close/skip, the AMB-25 deadline fallbacks)
- setup.py: the set-up played seat by seat, assembled into the engine's one set-up payload
  (NT-TEAM-27..31)
- written_orders_grammar.py, written_orders.py: the written orders' grammar, canonical form,
  validation against the map's toponyms, who writes to whom, slots, delivery timing and sealed
  commitments (NT-TEAM-17..26, digest 3.4)
- authority.py: the parts of a team turn in rank order, the shared limits, who may command which
  piece (NT-TEAM-32..39, -44, -48, -49)
- routing.py: who decides for the defender and which seat answers each of the engine's
  decisions (NT-TEAM-40..43, -47, -52; digest 3.3)
"""
