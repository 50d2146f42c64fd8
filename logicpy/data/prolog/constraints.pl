/*  constraints.pl -- dif/2 and clpfd under the names of logicpy's constraint goals.

    The reference side of the cross-checks that compare answers with their residual
    constraints (see logicpy.crosscheck and tests/test_crosscheck.py), e.g.

        logicpy crosscheck prolog/constraints.pl 'neq(X, 1)' --against logicpy.core:neq

    Each predicate is SWI-Prolog's dif/2 or the clpfd constraint with the same meaning;
    clpfd's operators (in, ins, #<, ...) can be used in goals read in this file's module.
    Not a module: logicpy.swi.consult loads it into a module of its own.
*/

:- use_module(library(clpfd)).

neq(X, Y) :- dif(X, Y).

lto(X, Y) :- X #< Y.

leqo(X, Y) :- X #=< Y.

eq_offseto(X, Y, C) :- X #= Y + C.

neq_offseto(X, Y, C) :- X #\= Y + C.

all_differento(Xs) :- all_different(Xs).

%   sumo(+Xs, ?Total): the sum of the list Xs is Total.
sumo(Xs, Total) :- sum(Xs, #=, Total).
