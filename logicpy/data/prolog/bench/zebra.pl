% The zebra puzzle (five houses), solved by placing partly known houses in a list
% with membership and adjacency, clue by clue. A house is
% h(Colour, Nationality, Pet, Drink, Smokes). The puzzle has one solution; every
% solution is searched for.
%
% run(Times, Solutions): all solutions as [ZebraOwner, WaterDrinker, Houses], Times times.
% bench(S): run/2 at the benchmark's size.

bench(S) :- run(2, S).

run(Times, S) :-
    ( between(2, Times, _), houses(_, _, _), fail ; true ),
    findall([Z, W, Hs], houses(Z, W, Hs), S).

houses(Zebra, Water, Hs) :-
    Hs = [h(_, norwegian, _, _, _), _, h(_, _, _, milk, _), _, _],
    among(h(red, english, _, _, _), Hs),
    among(h(_, spanish, dog, _, _), Hs),
    among(h(green, _, _, coffee, _), Hs),
    among(h(_, ukrainian, _, tea, _), Hs),
    right_of(h(green, _, _, _, _), h(ivory, _, _, _, _), Hs),
    among(h(_, _, snails, _, old_gold), Hs),
    among(h(yellow, _, _, _, kools), Hs),
    beside(h(_, _, _, _, chesterfield), h(_, _, fox, _, _), Hs),
    beside(h(_, _, _, _, kools), h(_, _, horse, _, _), Hs),
    among(h(_, _, _, orange_juice, lucky_strike), Hs),
    among(h(_, japanese, _, _, parliament), Hs),
    beside(h(_, norwegian, _, _, _), h(blue, _, _, _, _), Hs),
    among(h(_, Zebra, zebra, _, _), Hs),
    among(h(_, Water, _, water, _), Hs).

among(X, [X|_]).
among(X, [_|Xs]) :- among(X, Xs).

% right_of(A, B, Hs): A is the house just right of B.
right_of(A, B, [B, A|_]).
right_of(A, B, [_|Hs]) :- right_of(A, B, Hs).

beside(A, B, Hs) :- right_of(A, B, Hs).
beside(A, B, Hs) :- right_of(B, A, Hs).
