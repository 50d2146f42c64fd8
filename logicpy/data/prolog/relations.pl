% The SWI-Prolog side of bench/bench_relations.py: the same programs and the same data.

% naive reverse
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).

% 20,000 facts e(X, Y) over 10,000 nodes, from the same formula as the Python side
:- dynamic e/2.
make_edges :-
    retractall(e(_, _)),
    forall(between(0, 19999, I),
           ( X is I mod 10000, Y is (I * 7919 + 13 + I // 10000) mod 10000, assertz(e(X, Y)) )).
:- initialization(make_edges).
two_hop(N) :- aggregate_all(count, (e(X, Y), e(Y, _Z), X >= 0), N).

% left-recursive transitive closure on 1,000 edges over 400 nodes, tabled
:- table tpath/2.
:- dynamic tedge/2.
make_tedges :-
    retractall(tedge(_, _)),
    forall(between(0, 999, I),
           ( X is I mod 400, Y is (I * 7919 + 13 + I // 400) mod 400,
             ( tedge(X, Y) -> true ; assertz(tedge(X, Y)) ) )).
:- initialization(make_tedges).
tpath(X, Y) :- tpath(X, Z), tedge(Z, Y).
tpath(X, Y) :- tedge(X, Y).
closure_from(Start, N) :- abolish_all_tables, aggregate_all(count, tpath(Start, _), N).
closure_all(N) :- abolish_all_tables, aggregate_all(count, tpath(_, _), N).
