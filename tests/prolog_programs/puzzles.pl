% SEND + MORE = MONEY with clpfd, and N-queens with and without clpfd.
:- use_module(library(clpfd)).

puzzle([S,E,N,D] + [M,O,R,E] = [M,O,N,E,Y]) :-
    Vars = [S,E,N,D,M,O,R,Y],
    Vars ins 0..9,
    all_different(Vars),
    S*1000 + E*100 + N*10 + D + M*1000 + O*100 + R*10 + E #=
        M*10000 + O*1000 + N*100 + E*10 + Y,
    M #\= 0, S #\= 0,
    label(Vars).

% Queens by generate and test: a permutation of 1..N with no two on a diagonal.
queens(N, Qs) :- numbers(1, N, Ns), permutation_of(Ns, Qs), safe(Qs).

numbers(N, N, [N]).
numbers(M, N, [M|Ns]) :- M < N, M1 is M + 1, numbers(M1, N, Ns).

permutation_of([], []).
permutation_of(L, [X|P]) :- take(X, L, R), permutation_of(R, P).

take(X, [X|T], T).
take(X, [H|T], [H|R]) :- take(X, T, R).

safe([]).
safe([Q|Qs]) :- no_attack(Q, Qs, 1), safe(Qs).

no_attack(_, [], _).
no_attack(Q, [Q1|Qs], D) :- Q1 - Q =\= D, Q - Q1 =\= D, D1 is D + 1, no_attack(Q, Qs, D1).

% Queens with clpfd: the same board, posted as constraints then labelled.
fd_queens(N, Qs) :- length(Qs, N), Qs ins 1..N, all_different(Qs), fd_safe(Qs), label(Qs).

fd_safe([]).
fd_safe([Q|Qs]) :- fd_no_attack(Q, Qs, 1), fd_safe(Qs).

fd_no_attack(_, [], _).
fd_no_attack(Q, [Q1|Qs], D) :- Q1 - Q #\= D, Q - Q1 #\= D, D1 is D + 1, fd_no_attack(Q, Qs, D1).
