% Dudeney's nine prisoners (and kin) in SWI-Prolog's clpfd, written here for logicpy's cross-check.
%
% arrangement(+People, +Row, +Days, +Pairs, -Week): Week is Days lists of People people in
% walking order (rows of Row after one another); Pairs is cuffed (neighbours in a row meet)
% or row (everyone in a row meets). Every pair meets at most once (exactly once when the
% days hold as many meetings as there are pairs). Symmetry as logicpy's canonical model:
% day 1 is 1..People in order, each row first < last (ascending for row), row starts increasing.
%
%   ?- prisoners(Week).                     % 9 prisoners, rows of 3, 6 days
%   ?- arrangement(9, 3, 4, cuffed, Week).  % the seed's 4-day week
%   ?- neighbours(Week, 5, Ns).             % the seed's Neighbours(5)

:- use_module(library(clpfd)).
:- use_module(library(lists)).
:- use_module(library(apply)).

prisoners(Week) :- arrangement(9, 3, 6, cuffed, Week).

arrangement(People, Row, Days, Pairs, Week) :-
    length(Week, Days),
    maplist(day(People), Week),
    Week = [First|_],
    numlist(1, People, First),
    maplist(rows(Row), Week, RowLists),
    maplist(canonical_rows(Pairs), RowLists),
    foldl(meetings(People, Pairs), RowLists, [], Meetings),
    all_distinct(Meetings),
    append(Week, Vars),
    labeling([ff], Vars).

day(People, Day) :-
    length(Day, People),
    Day ins 1..People,
    all_distinct(Day).

rows(_, [], []) :- !.
rows(Row, Day, [R|Rs]) :-
    length(R, Row),
    append(R, Rest, Day),
    rows(Row, Rest, Rs).

canonical_rows(Pairs, Rows) :-
    maplist(row_order(Pairs), Rows),
    maplist(head, Rows, Starts),
    chain(Starts, #<).

head([S|_], S).

row_order(cuffed, Row) :- Row = [F|_], last(Row, L), F #< L.
row_order(row, Row) :- chain(Row, #<).

meetings(People, Pairs, Rows, Acc0, Acc) :-
    foldl(row_meetings(People, Pairs), Rows, Acc0, Acc).

row_meetings(People, cuffed, Row, Acc0, Acc) :-
    adjacent(Row, Links),
    foldl(link(People), Links, Acc0, Acc).
row_meetings(People, row, Row, Acc0, Acc) :-
    all_links(Row, Links),               % not findall/3: it would copy the variables
    foldl(link(People), Links, Acc0, Acc).

all_links([], []).
all_links([X|T], Links) :-
    links_from(T, X, Mine),
    all_links(T, Rest),
    append(Mine, Rest, Links).

links_from([], _, []).
links_from([Y|T], X, [X-Y|Ls]) :- links_from(T, X, Ls).

adjacent([_], []) :- !.
adjacent([X,Y|T], [X-Y|Ls]) :- adjacent([Y|T], Ls).

% link: M is the number of the unordered pair {X, Y} (X*People+Y for the smaller first).
link(People, X-Y, Acc, [M|Acc]) :-
    X #\= Y,
    M #= min(X, Y) * People + max(X, Y).

% neighbours(+Week, +I, -Ns): for each day, who is cuffed to I (rows of 3).
neighbours(Week, I, Ns) :-
    maplist(day_neighbours(I), Week, Ns).

day_neighbours(I, Day, Ns) :-
    rows(3, Day, Rows),
    member(Row, Rows), nth1(K, Row, I), !,
    findall(J, (member(D, [-1, 1]), P is K + D, nth1(P, Row, J)), Ns0),
    msort(Ns0, Ns).
