% Perfect numbers: the numbers equal to the sum of their proper divisors, found by
% trial division, each divisor D up to the square root counted with N / D.
%
% run(Limit, Ps): Ps are the perfect numbers up to Limit.
% bench(Ps): run/2 at the benchmark's size.

bench(Ps) :- run(1500, Ps).

run(Limit, Ps) :- findall(N, (between(2, Limit, N), perfect(N)), Ps).

perfect(N) :- divisor_sum(N, 2, 1, S), S =:= N.

% divisor_sum(N, D, S0, S): S is S0 plus the divisors of N from D up to N's square root
% and their cofactors.
divisor_sum(N, D, S, S) :- D * D > N, !.
divisor_sum(N, D, S0, S) :-
    (   N mod D =:= 0
    ->  E is N // D,
        (   E =:= D
        ->  S1 is S0 + D
        ;   S1 is S0 + D + E
        )
    ;   S1 = S0
    ),
    D1 is D + 1,
    divisor_sum(N, D1, S1, S).
