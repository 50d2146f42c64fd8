% Ackermann's function, recursion whose depth and count of calls grow faster than any
% primitive recursive function: ack(0, N) = N + 1, ack(M, 0) = ack(M - 1, 1),
% ack(M, N) = ack(M - 1, ack(M, N - 1)). ack(3, 5) is 253 and makes 42,438 calls.
%
% run(M, N, A): A is ack(M, N).
% bench(A): run/3 at the benchmark's size.

bench(A) :- run(3, 5, A).

run(M, N, A) :- ack(M, N, A).

ack(0, N, A) :- !, A is N + 1.
ack(M, 0, A) :- !, M1 is M - 1, ack(M1, 1, A).
ack(M, N, A) :-
    M1 is M - 1,
    N1 is N - 1,
    ack(M, N1, A1),
    ack(M1, A1, A).
