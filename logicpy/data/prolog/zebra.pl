/*  zebra.pl -- the zebra puzzle (Life International, 1962), plain relational Prolog.

    No clpfd: five houses h(Nationality, Colour, Pet, Drink, Smoke) in a list, clues as
    member/2 and nextto/3, in the same order as examples/zebra.py (the two clues that fix
    a position first). Exactly one solution: the Norwegian drinks water, the Japanese
    owns the zebra. Used by bench/bench_zebra.py and the cross-checks.
*/

zebra(Houses) :-
    Houses = [_, _, h(_, _, _, milk, _), _, _],                    %  9. Milk is drunk in the middle house.
    Houses = [h(norwegian, _, _, _, _) | _],                       % 10. The Norwegian lives in the first house.
    member(h(englishman, red, _, _, _), Houses),                   %  2. The Englishman lives in the red house.
    member(h(spaniard, _, dog, _, _), Houses),                     %  3. The Spaniard owns the dog.
    member(h(_, green, _, coffee, _), Houses),                     %  4. Coffee is drunk in the green house.
    member(h(ukrainian, _, _, tea, _), Houses),                    %  5. The Ukrainian drinks tea.
    nextto(h(_, ivory, _, _, _), h(_, green, _, _, _), Houses),    %  6. Green is immediately right of ivory.
    member(h(_, _, snails, _, old_gold), Houses),                  %  7. The Old Gold smoker owns snails.
    member(h(_, yellow, _, _, kools), Houses),                     %  8. Kools are smoked in the yellow house.
    next_to(h(_, _, _, _, chesterfield), h(_, _, fox, _, _), Houses),   % 11. Chesterfields next to the fox.
    next_to(h(_, _, _, _, kools), h(_, _, horse, _, _), Houses),        % 12. Kools next to the horse.
    member(h(_, _, _, orange_juice, lucky_strike), Houses),        % 13. Lucky Strike smoker drinks orange juice.
    member(h(japanese, _, _, _, parliament), Houses),              % 14. The Japanese smokes Parliaments.
    next_to(h(norwegian, _, _, _, _), h(_, blue, _, _, _), Houses),     % 15. The Norwegian lives next to blue.
    member(h(_, _, zebra, _, _), Houses),                          %     Who owns the zebra?
    member(h(_, _, _, water, _), Houses).                          %     Who drinks water?

%   next_to(?A, ?B, ?Houses): A and B are neighbours, either way round.
next_to(A, B, Houses) :- nextto(A, B, Houses).
next_to(A, B, Houses) :- nextto(B, A, Houses).

%   zebra_answer(-WaterDrinker, -ZebraOwner): the nationalities the puzzle asks for.
zebra_answer(WaterDrinker, ZebraOwner) :-
    zebra(Houses),
    member(h(WaterDrinker, _, _, water, _), Houses),
    member(h(ZebraOwner, _, zebra, _, _), Houses).
