% Collecting solutions: findall/3 over between/3 with an arithmetic test, then the
% length and sum of the collected list.
%
% run(Times, Count-Sum): the numbers 1..10000 that leave 3 when divided by 7, collected
% Times times; Count of them, summing to Sum.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(5, A).

run(Times, Count-Sum) :-
    ( between(2, Times, _), collect(_), fail ; true ),
    collect(L),
    length(L, Count),
    sum_list(L, Sum).

collect(L) :- findall(X, (between(1, 10000, X), X mod 7 =:= 3), L).
