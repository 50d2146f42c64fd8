% Fibonacci numbers by their doubly recursive definition: fib(N) calls itself for N - 1
% and N - 2, an exponential number of calls (57,313 for fib(22)).
%
% run(N, F): F is the Nth Fibonacci number (fib(0) = 0, fib(1) = 1).
% bench(F): run/2 at the benchmark's size.

bench(F) :- run(22, F).

run(N, F) :- fib(N, F).

fib(0, 0) :- !.
fib(1, 1) :- !.
fib(N, F) :-
    N1 is N - 1,
    N2 is N - 2,
    fib(N1, F1),
    fib(N2, F2),
    F is F1 + F2.
