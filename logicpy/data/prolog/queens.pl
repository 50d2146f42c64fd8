% N-queens with SWI-Prolog's library(clpfd), the same model as examples/queens.py:
% queen I stands in column I, its row is Qs[I]; rows all different, no shared diagonal.
% Used by bench/bench_fd.py.

:- use_module(library(clpfd)).

queens(N, Qs) :- queens(N, 1, Qs).

% queens(N, First, Qs): rows numbered First..First+N-1.
queens(N, First, Qs) :-
    length(Qs, N),
    Last is First + N - 1,
    Qs ins First..Last,
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
count_solutions(N, C) :- count_solutions(N, 1, C).

% count_solutions(N, First, C): the same with rows numbered from First.
count_solutions(N, First, C) :- aggregate_all(count, (queens(N, First, Qs), labeling([ff], Qs)), C).

