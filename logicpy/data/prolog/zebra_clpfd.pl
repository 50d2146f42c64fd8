% The zebra puzzle with SWI-Prolog's library(clpfd): the same model as examples/zebra_fd.py.
% Each thing's variable is its house number, 1 to 5 from the left.
% zebra_clpfd(Vars) enumerates the solutions (exactly one); used by bench/bench_fd.py.

:- use_module(library(clpfd)).

zebra_clpfd(Vars) :-
    Colours = [Red, Green, Ivory, Yellow, Blue],
    Nations = [English, Spaniard, Ukrainian, Norwegian, Japanese],
    Drinks  = [Coffee, Tea, Milk, Juice, _Water],
    Smokes  = [OldGold, Kools, Chesterfield, LuckyStrike, Parliament],
    Pets    = [Dog, Snails, Fox, Horse, _Zebra],
    Groups  = [Colours, Nations, Drinks, Smokes, Pets],
    append(Groups, Vars),
    Vars ins 1..5,
    maplist(all_distinct, Groups),
    English #= Red,                   %  2. The Englishman lives in the red house.
    Spaniard #= Dog,                  %  3. The Spaniard owns the dog.
    Coffee #= Green,                  %  4. Coffee is drunk in the green house.
    Ukrainian #= Tea,                 %  5. The Ukrainian drinks tea.
    Green #= Ivory + 1,               %  6. The green house is immediately to the right of the ivory house.
    OldGold #= Snails,                %  7. The Old Gold smoker owns snails.
    Kools #= Yellow,                  %  8. Kools are smoked in the yellow house.
    Milk #= 3,                        %  9. Milk is drunk in the middle house.
    Norwegian #= 1,                   % 10. The Norwegian lives in the first house.
    abs(Chesterfield - Fox) #= 1,     % 11. Chesterfields are smoked next to the fox.
    abs(Kools - Horse) #= 1,          % 12. Kools are smoked next to the horse.
    LuckyStrike #= Juice,             % 13. The Lucky Strike smoker drinks orange juice.
    Japanese #= Parliament,           % 14. The Japanese smokes Parliaments.
    abs(Norwegian - Blue) #= 1,       % 15. The Norwegian lives next to the blue house.
    labeling([ff], Vars).

% zebra_clpfd_answer(Water, Zebra): the house numbers of the water drinker and the zebra.
zebra_clpfd_answer(Water, Zebra) :-
    zebra_clpfd(Vars),
    nth1(15, Vars, Water),
    nth1(25, Vars, Zebra).
