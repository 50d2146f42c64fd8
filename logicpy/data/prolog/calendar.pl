% The calendar date puzzle (A-Puzzle-A-Day) in plain SWI-Prolog, written here as a second
% engine for logicpy's calendar: the seed's board and eight pieces, every rotation and
% reflection, filled cell by cell in reading order (the first free cell must be the first
% cell of the piece placed there). No exact-cover library, no shared code with logicpy.
%
%   ?- date_count(10, 6, N).        % N = 7
%   ?- date_solution(10, 6, Grid).  % Grid: rows as atoms, letters A-H, ' ' open, x off board
%   ?- all_dates_count(Total).      % solutions summed over the 366 real dates
%
% Used by tests/puzzles/calendar/test_calendar_pl.py and bench/bench_calendar.py.

board(["######.",
       "######.",
       "#######",
       "#######",
       "#######",
       "#######",
       "###...."]).

% piece(Letter, Rows): the seed's pieces in its order.
piece('A', ["##", ".#", ".#", ".#"]).
piece('B', ["##", "##", ".#"]).
piece('C', [".##", ".#.", "##."]).
piece('D', ["#.", "##", ".#", ".#"]).
piece('E', ["#..", "#..", "###"]).
piece('F', ["###", "#.#"]).
piece('G', ["###", "###"]).
piece('H', [".#..", "####"]).

% Cells are numbered R*7+C, so sorted cell lists are in reading order and each placement
% is found by first-argument indexing on the free cell it must start at.
:- dynamic placement/3.

% cells(+Rows, -Cells): the numbers of the '#' characters, in reading order.
cells(Rows, Cells) :-
    findall(N, (nth0(R, Rows, Row), string_chars(Row, Chars), nth0(C, Chars, '#'), N is R * 7 + C), Cells).

% symmetry(+K, +Cell, -Cell2): the K-th of the square's 8 symmetries, on R-C pairs.
symmetry(K, R-C, R2-C2) :-
    ( K >= 4 -> C1 is -C ; C1 = C ),
    Turns is K mod 4,
    turn(Turns, R-C1, R2-C2).

turn(0, P, P) :- !.
turn(N, R-C, P) :- R1 = C, C1 is -R, N1 is N - 1, turn(N1, R1-C1, P).

% shape(+Letter, -Offsets): a distinct orientation, as R-C offsets from its first cell.
shape(P, Offsets) :-
    piece(P, Rows),
    findall(R-C, (nth0(R, Rows, Row), string_chars(Row, Chars), nth0(C, Chars, '#')), Cells),
    setof(O, K^Moved^(between(0, 7, K), maplist(symmetry(K), Cells, Moved), offsets(Moved, O)), Os),
    member(Offsets, Os).

offsets(Cells, Offsets) :-
    msort(Cells, [R0-C0|Rest]),
    findall(DR-DC, (member(R-C, [R0-C0|Rest]), DR is R - R0, DC is C - C0), Offsets).

% placement(Start, Letter, Cells): the piece on the board with its first cell at Start.
make_placements :-
    retractall(placement(_, _, _)),
    board(Rows), cells(Rows, Board),
    forall(( shape(P, Offsets), member(Start, Board), R0 is Start // 7, C0 is Start mod 7,
             findall(N, (member(DR-DC, Offsets), R is R0 + DR, C is C0 + DC, C >= 0, C < 7, N is R * 7 + C), Cells),
             length(Cells, L), length(Offsets, L), ord_subset(Cells, Board) ),
           assertz(placement(Start, P, Cells))).

:- initialization(make_placements).

month_cell(M, N) :- N is ((M - 1) // 6) * 7 + (M - 1) mod 6.
day_cell(D, N) :- N is (2 + (D - 1) // 7) * 7 + (D - 1) mod 7.

% free_cells(+Month, +Day, -Free): the board's cells less the date's, sorted.
free_cells(M, D, Free) :-
    board(Rows), cells(Rows, All),
    month_cell(M, MC), day_cell(D, DC),
    msort([MC, DC], Open),
    ord_subtract(All, Open, Free).

% tile(+Free, +Pieces, -Placed): cover Free with every piece of Pieces; Placed: Letter-Cells.
tile([], [], []).
tile([Start|Free], Pieces, [P-Cells|Placed]) :-
    select(P, Pieces, Rest),
    placement(Start, P, Cells),
    ord_subset(Cells, [Start|Free]),
    ord_subtract(Free, Cells, Left),
    tile(Left, Rest, Placed).

pieces(Ps) :- findall(P, piece(P, _), Ps).

% date_count(+Month, +Day, -N): the number of solutions for the date.
date_count(M, D, N) :-
    free_cells(M, D, Free), pieces(Ps),
    aggregate_all(count, tile(Free, Ps, _), N).

% date_solution(+Month, +Day, -Grid): one solution per answer, as rows of letters.
date_solution(M, D, Grid) :-
    free_cells(M, D, Free), pieces(Ps),
    tile(Free, Ps, Placed),
    board(Rows),
    findall(Row,
            ( nth0(R, Rows, BoardRow), string_chars(BoardRow, Chars),
              findall(Ch, (nth0(C, Chars, B), N is R * 7 + C, cell_char(B, N, Placed, Ch)), RowChars),
              atom_chars(Row, RowChars) ),
            Grid).

cell_char('.', _, _, x) :- !.
cell_char(_, Cell, Placed, P) :- member(P-Cells, Placed), memberchk(Cell, Cells), !.
cell_char(_, _, _, ' ').

real_date(M, D) :- nth1(M, [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], Last), between(1, Last, D).

% all_dates_count(-Total): solutions summed over the 366 real dates, one search per date.
all_dates_count(Total) :-
    aggregate_all(sum(N), (between(1, 12, M), between(1, 31, D), real_date(M, D), date_count(M, D, N)), Total).
