% N queens in plain Prolog (no constraint library): place one queen per column, choosing
% its row among those left, and check at once that it attacks no queen placed before.
% All solutions are enumerated.
%
% run(N, Count-First): Count solutions on an N by N board, First the first one found.
% bench(A): run/2 on the 8 by 8 board (92 solutions).

bench(A) :- run(8, A).

run(N, Count-First) :-
    findall(Qs, queens(N, Qs), [First|Rest]),
    length([First|Rest], Count).

queens(N, Qs) :- rows(1, N, Rows), place(Rows, [], Qs).

% place(Left, Placed, Qs): Placed are the rows of the queens so far, the last one first.
place([], Qs, Qs).
place(Left, Placed, Qs) :-
    take(Q, Left, Others),
    no_attack(Q, Placed, 1),
    place(Others, [Q|Placed], Qs).

% no_attack(Q, Placed, D): Q shares no diagonal with the queens D, D+1, ... columns away.
no_attack(_, [], _).
no_attack(Q, [P|Ps], D) :-
    Q =\= P + D,
    Q =\= P - D,
    E is D + 1,
    no_attack(Q, Ps, E).

take(X, [X|Xs], Xs).
take(X, [Y|Ys], [Y|Zs]) :- take(X, Ys, Zs).

rows(N, Max, []) :- N > Max, !.
rows(N, Max, [N|Ns]) :- M is N + 1, rows(M, Max, Ns).
