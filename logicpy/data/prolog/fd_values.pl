% Finite domains over values of any size with SWI-Prolog's library(clpfd), the same
% problems as bench/bench_fd.py's "values of any size" rows.

:- use_module(library(clpfd)).

% halves(N, X, Y): X, Y in 1..N, X + Y = N + 1, X - Y = 1, labelled by bisection
% (bounds propagation alone leaves both N - 1 values wide).
halves(N, X, Y) :-
    [X, Y] ins 1..N,
    N1 is N + 1,
    X + Y #= N1,
    X - Y #= 1,
    labeling([ff, bisect], [X, Y]).

% far_apart(Xs): the values of X in {0, 10^12, 10^40}, labelled.
far_apart(Xs) :-
    A is 10^12,
    B is 10^40,
    findall(X, (X in 0 \/ A \/ B, label([X])), Xs).
