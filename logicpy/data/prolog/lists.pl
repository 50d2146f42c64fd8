/*  lists.pl -- SWI-Prolog's list predicates under the names of logicpy's relations.

    The reference side of the cross-checks of logicpy.core.lists (see logicpy.crosscheck
    and tests/test_crosscheck.py): each predicate is the SWI-Prolog built-in or
    library(lists) predicate with the same meaning, so

        logicpy crosscheck prolog/lists.pl 'appendo(X, Y, [1,2,3])' \
            --against logicpy.core.lists:appendo

    compares logicpy's appendo with SWI's append/3. The built-ins themselves
    (append/3, length/2, select/3, permutation/2, member/2) are also callable here.
    Not a module: logicpy.swi.consult loads it into a module of its own.
*/

appendo(Xs, Ys, Zs) :- append(Xs, Ys, Zs).

lengtho(Xs, N) :- length(Xs, N).

selecto(X, Xs, Rest) :- select(X, Xs, Rest).

permuteo(Xs, Ys) :- permutation(Xs, Ys).

membero(X, Xs) :- member(X, Xs).

nth1o(N, Xs, X) :- nth1(N, Xs, X).

%   distincto(+Xs): the elements of the proper list Xs are pairwise different;
%   dif/2 keeps the constraint on elements that are not yet bound.
distincto(Xs) :- distinct_(Xs).

distinct_([]).
distinct_([X|Xs]) :- maplist(dif(X), Xs), distinct_(Xs).
