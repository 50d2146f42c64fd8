% Everyday clpfd: non-linear arithmetic, min/max, integer division, reification,
% labeling options, sum/3, tuples_in/2. Each predicate is cross-checked against SWI-Prolog.
:- use_module(library(clpfd)).

% Factor pairs of N: a product of two unknowns.
factors(N, X, Y) :- [X,Y] ins 1..N, X * Y #= N, X #=< Y, label([X,Y]).

% Pythagorean triples up to N, squares by ^.
triple(N, A, B, C) :- [A,B,C] ins 1..N, A #< B, A^2 + B^2 #= C^2, label([A,B,C]).

% Integer division and remainders over signed ranges, as clpfd defines each.
divisions(X, Y, Q, R, D, M) :-
    X in -7..7, Y in -3..3, Y #\= 0,
    Q #= X // Y, R #= X rem Y, D #= X div Y, M #= X mod Y,
    label([X,Y]).

% Chinese remainders: mod with a constant divisor.
crt(X) :- X in 0..200, X mod 3 #= 2, X mod 5 #= 3, X mod 7 #= 2, label([X]).

% A meeting number for an unordered pair, as prolog/prisoners.pl numbers pairs.
pair_code(X, Y, M) :- [X,Y] ins 1..4, X #\= Y, M #= min(X, Y) * 4 + max(X, Y), label([X,Y]).

% Magic square 3x3 with sum/3.
magic(Rows) :-
    Rows = [[A,B,C],[D,E,F],[G,H,I]],
    Vs = [A,B,C,D,E,F,G,H,I], Vs ins 1..9, all_distinct(Vs),
    maplist([Row]>>sum(Row, #=, 15), Rows),
    sum([A,D,G], #=, 15), sum([B,E,H], #=, 15), sum([C,F,I], #=, 15),
    sum([A,E,I], #=, 15), sum([C,E,G], #=, 15),
    labeling([ff], Vs).

% Reification: count how many of Xs exceed T (written canonically: #<==>(B, X #> T)).
count_above([], _, 0).
count_above([X|Xs], T, N) :- #<==>(B, X #> T), N #= B + N1, count_above(Xs, T, N1).

above(Xs, N) :- length(Xs, 3), Xs ins 0..3, count_above(Xs, 1, N), N #>= 2, label(Xs).

% Boolean connectives between constraints.
logic(X, Y) :- [X,Y] ins 0..4, #\/(X #= 0, Y #= 0), #==>(X #> 2, Y #< 1), #\(X #= Y), label([X,Y]).

% The labeling options: variable selection, value order, branching.
order(Options, Vs) :- Vs = [X,Y,Z], X in 1..3, Y in 1..2, Z in 0..4, X + Y #= Z, labeling(Options, Vs).

% tuples_in/2: a table of allowed pairs.
train(From, To) :- tuples_in([[From,To]], [[1,2],[2,3],[3,1],[2,4]]), From #> 1, label([From,To]).

% sum/3 with an inequality, and abs of an expression.
spread(L) :- length(L, 3), L ins 0..3, sum(L, #=<, 4), L = [A,B,C], abs(A - B + C) #= 2, label(L).
