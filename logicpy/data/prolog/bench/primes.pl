% The sieve of Eratosthenes on a list: take the first number left as a prime and
% remove its multiples from the rest.
%
% run(Times, Ps): the primes up to 98, found Times times.
% bench(Ps): run/2 at the benchmark's size.

bench(Ps) :- run(40, Ps).

run(Times, Ps) :-
    ( between(2, Times, _), primes(98, _), fail ; true ),
    primes(98, Ps).

primes(Limit, Ps) :- numbers_from(2, Limit, Ns), sieve(Ns, Ps).

numbers_from(N, Max, []) :- N > Max, !.
numbers_from(N, Max, [N|Ns]) :- M is N + 1, numbers_from(M, Max, Ns).

sieve([], []).
sieve([P|Ns], [P|Ps]) :- strike(Ns, P, Left), sieve(Left, Ps).

% strike(Ns, P, Left): Left are the numbers of Ns that P does not divide.
strike([], _, []).
strike([N|Ns], P, Left) :-
    (   N mod P =:= 0
    ->  Left = Rest
    ;   Left = [N|Rest]
    ),
    strike(Ns, P, Rest).
