% A database query: pairs of countries whose population densities differ by less than
% 5% (the denser one first). Populations are in millions and areas in thousands of km²
% (rounded recent figures); densities in people per km², whole numbers.
%
% run(Times, Pairs): all pairs as [C1, D1, C2, D2], found Times times.
% bench(Pairs): run/2 at the benchmark's size.

bench(Pairs) :- run(40, Pairs).

run(Times, Pairs) :-
    ( between(2, Times, _), pair(_), fail ; true ),
    findall(P, pair(P), Pairs).

pair([C1, D1, C2, D2]) :-
    density(C1, D1),
    density(C2, D2),
    D1 > D2,
    20 * D1 < 21 * D2.

density(C, D) :- population(C, P), area(C, A), D is P * 1000 // A.

population(china, 1410).
population(india, 1430).
population(usa, 335).
population(indonesia, 277).
population(pakistan, 240).
population(nigeria, 224).
population(brazil, 216).
population(bangladesh, 173).
population(russia, 144).
population(mexico, 129).
population(ethiopia, 127).
population(japan, 124).
population(philippines, 117).
population(egypt, 113).
population(congo, 102).
population(vietnam, 99).
population(iran, 89).
population(turkey, 85).
population(germany, 84).
population(thailand, 72).
population(uk, 68).
population(france, 68).
population(tanzania, 67).
population(south_africa, 60).
population(italy, 59).
population(kenya, 55).
population(korea, 52).
population(colombia, 52).
population(spain, 48).
population(argentina, 46).

area(china, 9597).
area(india, 3287).
area(usa, 9834).
area(indonesia, 1905).
area(pakistan, 882).
area(nigeria, 924).
area(brazil, 8516).
area(bangladesh, 148).
area(russia, 17098).
area(mexico, 1964).
area(ethiopia, 1104).
area(japan, 378).
area(philippines, 300).
area(egypt, 1002).
area(congo, 2345).
area(vietnam, 331).
area(iran, 1648).
area(turkey, 784).
area(germany, 357).
area(thailand, 513).
area(uk, 244).
area(france, 552).
area(tanzania, 947).
area(south_africa, 1221).
area(italy, 301).
area(kenya, 580).
area(korea, 100).
area(colombia, 1142).
area(spain, 506).
area(argentina, 2780).
