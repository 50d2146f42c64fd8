% Cut (!) in its uses: committing a clause, a deterministic loop, if-then-else, green and red cuts.

% max/3: the first clause commits when X >= Y (a green cut: the second clause would also
% be right without it, since it tests X < Y).
max(X, Y, X) :- X >= Y, !.
max(X, Y, Y) :- X < Y.

% A red cut: the second clause is only right because the cut removes it when X >= Y.
max_red(X, Y, X) :- X >= Y, !.
max_red(_, Y, Y).

% A deterministic loop: count down to 0, collecting the numbers.
count(N, []) :- N =< 0, !.
count(N, [N|Ns]) :- M is N - 1, count(M, Ns).

% If-then-else by cut.
sign(X, S) :- X > 0, !, S = positive.
sign(X, S) :- X < 0, !, S = negative.
sign(_, zero).

% member then cut: the first element that passes the test.
first_big([X|Xs], Min, Y) :- member(Y, [X|Xs]), Y > Min, !.

% The cut removes the alternatives of the goals to its left and the remaining clauses.
color(red). color(green). color(blue).
size(small). size(large).
pair(C, S) :- color(C), size(S), S == large, !.
pair(none, none).

% A cut in a disjunction cuts the clause; cut inside call/1 and \+ is local to them.
pick(X) :- ( color(X), ! ; X = other ).
pick(last).
local(X) :- call((color(X), !)).
local(last).
not_first(X) :- color(X), \+ (color(Y), !, Y == X).

% Negation by cut and fail, the classic way.
not_member(X, L) :- member(X, L), !, fail.
not_member(_, _).

% A cut in an if-then-else's condition is local; in its then-branch it cuts the clause.
cond(X, Y) :- ( color(X), ! -> Y = yes ; Y = no ).
cond(_, late).
then_cut(X) :- ( true -> color(X), ! ; fail ).
then_cut(late).
