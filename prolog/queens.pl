% N-queens with SWI-Prolog's library(clpfd), the same model as examples/queens.py:
% queen I stands in column I, its row is Qs[I]; rows all different, no shared diagonal.
% Used by bench/bench_fd.py.

:- use_module(library(clpfd)).

queens(N, Qs) :-
    length(Qs, N),
    Qs ins 1..N,
    all_different(Qs),
    safe(Qs).

safe([]).
safe([Q|Qs]) :- no_attack(Q, Qs, 1), safe(Qs).

no_attack(_, [], _).
no_attack(Q, [Q1|Qs], D) :-
    Q #\= Q1 + D,
    Q #\= Q1 - D,
    D1 is D + 1,
    no_attack(Q, Qs, D1).

% first_solution(N, Qs): the first solution in first-fail order.
first_solution(N, Qs) :- queens(N, Qs), labeling([ff], Qs), !.

% count_solutions(N, C): the number of solutions, all enumerated.
count_solutions(N, C) :- aggregate_all(count, (queens(N, Qs), labeling([ff], Qs)), C).
