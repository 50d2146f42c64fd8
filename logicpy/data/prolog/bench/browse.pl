% Browsing a database by pattern matching, in the manner of Gabriel's browse benchmark:
% a database of units is made, each with a few property lists of symbols chosen by a
% linear congruential generator, then every property list of every unit is matched
% against a set of patterns. In a pattern, * matches any run of symbols and a variable
% any one symbol (the same symbol wherever it occurs).
%
% run(Units, Times, Matches): Units units made, all matched Times times; Matches is the
% number of (property list, pattern) pairs that match.
% bench(A): run/3 at the benchmark's size.

bench(A) :- run(60, 2, A).

run(Units, Times, Matches) :-
    database(Units, Db),
    ( between(2, Times, _), investigate(Db, _), fail ; true ),
    investigate(Db, Matches).

investigate(Db, Matches) :-
    findall(x, ( member(unit(_, Lists), Db),
                 member(List, Lists),
                 pattern(P0),
                 copy_term(P0, P),
                 match(P, List) ), Xs),
    length(Xs, Matches).

% match(Pattern, Symbols): first solution only.
match(P, L) :- matches(P, L), !.

matches([], []).
matches([P|Ps], L) :- P == *, !, rest(L, R), matches(Ps, R).
matches([P|Ps], [P|L]) :- matches(Ps, L).

% rest(L, R): R is L or a suffix of it.
rest(L, L).
rest([_|L], R) :- rest(L, R).

pattern([*, a, *, b, *]).
pattern([X, *, X]).
pattern([*, c, c, *]).
pattern([a, _, *, d, _]).
pattern([*, X, Y, X, Y, *]).
pattern([*, e]).
pattern([_, _, _, _, _, _, *]).
pattern([*, X, *, X, *, X, *]).

% database(N, Db): N units, each with 4 property lists of 4 to 10 symbols.
database(N, Db) :- units(0, N, 7, Db).

units(N, N, _, []) :- !.
units(I, N, Seed0, [unit(I, Lists)|Us]) :-
    lists(4, Seed0, Seed, Lists),
    I1 is I + 1,
    units(I1, N, Seed, Us).

lists(0, Seed, Seed, []) :- !.
lists(K, Seed0, Seed, [L|Ls]) :-
    random(Seed0, Seed1, R),
    Length is 4 + R mod 7,
    symbols(Length, Seed1, Seed2, L),
    K1 is K - 1,
    lists(K1, Seed2, Seed, Ls).

symbols(0, Seed, Seed, []) :- !.
symbols(K, Seed0, Seed, [S|Ss]) :-
    random(Seed0, Seed1, R),
    I is R mod 5 + 1,
    arg(I, s(a, b, c, d, e), S),
    K1 is K - 1,
    symbols(K1, Seed1, Seed, Ss).

% random(Seed0, Seed, R): the next state of a linear congruential generator and a
% number from its high bits.
random(Seed0, Seed, R) :-
    Seed is (Seed0 * 1103515245 + 12345) mod 2147483648,
    R is Seed >> 16.
