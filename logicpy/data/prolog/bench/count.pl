% A tail-recursive counting loop: count from 0 up to N by a deterministic last call.
% A Prolog system with last-call optimisation runs it in constant memory.
%
% run(N, C): count to N; C is the final count (N).
% bench(C): run/2 at the benchmark's size.

bench(C) :- run(100000, C).

run(N, C) :- count(0, N, C).

count(I, N, C) :- I < N, !, I1 is I + 1, count(I1, N, C).
count(N, N, N).
