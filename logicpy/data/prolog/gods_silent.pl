/*  gods_silent.pl -- the three gods where Random may also stay silent.

    gods.pl with one fact more: a random god's answer at a step may be `silent` (he says
    nothing), as in the original's random_silent.pl; trees are then
    tree(q(P, Q), DaTree, JaTree, SilentTree).  Cross-check it with
    `logicpy gods crosscheck --semantics silent prolog/gods_silent.pl`.
*/

:- include('gods.pl').

random_may_be_silent.
