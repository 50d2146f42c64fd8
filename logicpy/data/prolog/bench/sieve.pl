% The sieve of Eratosthenes on the dynamic database: every number from 2 to N is asserted
% as a candidate, then for each prime P up to the square root of N its multiples from
% P * P on are retracted. The candidates left are the primes.
%
% run(N, Count-Largest): Count primes up to N, the largest Largest.
% bench(A): run/2 at the benchmark's size.

:- dynamic candidate/1.

bench(A) :- run(3000, A).

run(N, Count-Largest) :-
    retractall(candidate(_)),
    ( between(2, N, I), assertz(candidate(I)), fail ; true ),
    sift(2, N),
    findall(P, candidate(P), Ps),
    length(Ps, Count),
    last(Ps, Largest).

sift(P, N) :- P * P > N, !.
sift(P, N) :-
    (   candidate(P)
    ->  M is P * P,
        strike(M, P, N)
    ;   true
    ),
    P1 is P + 1,
    sift(P1, N).

% strike(M, P, N): retract the multiples M, M + P, ... up to N.
strike(M, _, N) :- M > N, !.
strike(M, P, N) :-
    ( retract(candidate(M)) -> true ; true ),
    M1 is M + P,
    strike(M1, P, N).
