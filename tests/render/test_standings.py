"""The standings table: its size, names cut to fit, every mark drawn and told apart by shape,
every script drawn with real glyphs, and text that reads on a phone in both themes."""

from __future__ import annotations

import dataclasses
import io
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from render import DEFAULT_FONTS, DEFAULT_THEME, LIGHT_THEME, Theme
from render import fonts as F
from render.standings import (
    BODY_SIZE,
    DEFAULT_STANDINGS_WIDTH,
    FOOTER_LINE,
    FOOTER_SIZE,
    MARKER_COLUMN,
    MARKER_RADIUS,
    NAME_MIN,
    Column,
    Mark,
    StandingsRow,
    StandingsTable,
    marker,
    standings_image,
    standings_layout,
    standings_png,
)
from render.theme import rgb
from tests.render.pixels import at, near
from tests.render.test_phone import contrast
from tools.gallery import PHONE_WIDTH, standings_samples, write_standings

LONG_NAME = "Charlotte Featherstonehaugh-Whitmore of Little Snoring"
COLUMNS = (Column("Pts", emphasis=True), Column("G"), Column("SB"))


def _row(
    rank: int, name: str = "", *, mark: Mark | None = None, highlight: bool = False
) -> StandingsRow:
    return StandingsRow(str(rank), name or f"Player {rank}", ("4½", "6", "12.75"), mark, highlight)


def _table(count: int = 6) -> StandingsTable:
    rows = [_row(rank) for rank in range(1, count + 1)]
    return StandingsTable("Spring Open", "After round 6 of 9", COLUMNS, rows)


MARKED = StandingsTable(
    "League · Division 2",
    "Season 3",
    COLUMNS,
    [
        _row(1, "Alice", mark=Mark.WINNER),
        _row(2, "Борис", mark=Mark.PROMOTED, highlight=True),
        _row(3, "김민준"),
        _row(4, "Zoë", mark=Mark.RELEGATED),
        _row(5, "Łukasz", mark=Mark.WITHDRAWN),
    ],
    legend={Mark.WINNER: "champion", Mark.PROMOTED: "up", Mark.RELEGATED: "down"},
)


@dataclass(frozen=True)
class Drawn:
    """One call of :func:`render.fonts.draw_text`."""

    text: str
    x: float
    chain: tuple[str, ...]
    size: int
    fill: tuple[int, ...]
    align: str


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every text the renderer draws, as it draws it."""
    calls: list[Drawn] = []
    draw_text = F.draw_text

    def record(
        draw: ImageDraw.ImageDraw,
        x: float,
        baseline: float,
        text: str,
        *,
        chain: tuple[str, ...],
        size: int,
        fill: tuple[int, ...],
        align: F.Align = "left",
    ) -> None:
        calls.append(Drawn(text, x, chain, size, fill, align))
        draw_text(draw, x, baseline, text, chain=chain, size=size, fill=fill, align=align)

    monkeypatch.setattr(F, "draw_text", record)
    yield calls


def _find(calls: Sequence[Drawn], text: str) -> Drawn:
    found = [call for call in calls if call.text == text]
    assert found, f"{text!r} was not drawn; drawn: {[call.text for call in calls]}"
    return found[0]


def test_the_image_is_as_wide_as_asked_and_grows_a_row_at_a_time() -> None:
    for size in (390, 800, 1200):
        image = standings_image(_table(), size=size)
        assert image.width == size and image.mode == "RGB"
    one, forty = standings_image(_table(1)), standings_image(_table(40))
    row = standings_layout(_table(1)).row_height
    assert forty.width == one.width == DEFAULT_STANDINGS_WIDTH
    assert abs(forty.height - one.height - 39 * row) <= 1
    with pytest.raises(ValueError, match="at least"):
        standings_image(_table(), size=200)


def test_the_png_is_the_image_encoded_and_the_same_every_time() -> None:
    png = standings_png(MARKED)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png == standings_png(MARKED)
    assert Image.open(io.BytesIO(png)).size == standings_image(MARKED).size


def test_digits_are_at_least_eleven_pixels_tall_on_a_phone() -> None:
    # Measured on the ink of a drawn "8": at 800 px, scaled as Discord shows it at 390.
    table = StandingsTable("T", "", (Column("Pts"),), [StandingsRow("8", "Ann", ("8",))])
    image = standings_image(table)
    lay = standings_layout(table)
    left, right = lay.cells[0]
    top = lay.rows_top
    cell = image.crop((round(left), round(top), round(right), round(top + lay.row_height)))
    ink = Image.eval(cell.convert("L"), lambda value: 255 if value > 128 else 0).getbbox()
    assert ink is not None
    height = (ink[3] - ink[1]) * PHONE_WIDTH / DEFAULT_STANDINGS_WIDTH
    assert height >= 11, height
    assert F.cap_height(DEFAULT_FONTS.regular, round(BODY_SIZE * 800)) * 390 / 800 >= 11


def test_a_long_name_is_cut_with_an_ellipsis_inside_its_column(drawn: list[Drawn]) -> None:
    rows = [_row(1, LONG_NAME), _row(2, "Bob"), _row(3, "x" * 500)]
    table = dataclasses.replace(_table(), rows=rows)
    standings_image(table)
    lay = standings_layout(table)
    room = lay.name[1] - lay.name[0]
    for call in drawn:
        if call.x == lay.name[0] and call.text.endswith("…"):
            assert F.text_width(call.chain, call.size, call.text) <= room + 0.01
    cut = [call.text for call in drawn if call.text.endswith("…")]
    assert len(cut) == 2 and cut[0].startswith("Charlotte") and cut[1].startswith("xxx")
    assert _find(drawn, "Bob").size == round(BODY_SIZE * DEFAULT_STANDINGS_WIDTH)


def test_names_are_put_on_one_line() -> None:
    messy = dataclasses.replace(_table(), rows=[_row(1, "Ann\nLee\t"), _row(2, "Bob")])
    tidy = dataclasses.replace(_table(), rows=[_row(1, "Ann Lee"), _row(2, "Bob")])
    assert standings_image(messy).tobytes() == standings_image(tidy).tobytes()


def test_every_text_is_drawn_in_its_place(drawn: list[Drawn]) -> None:
    table = dataclasses.replace(MARKED, footer=("Bye in round 3: Łukasz.",), name_header="Player")
    standings_image(table)
    lay = standings_layout(table)
    for text in ("League · Division 2", "Season 3", "#", "Player", "Pts", "G", "SB"):
        _find(drawn, text)
    for text in ("champion", "up", "down", "Bye in round 3: Łukasz."):
        assert _find(drawn, text).fill == (*rgb(DEFAULT_THEME.muted_text), 255)
    assert "withdrew" not in [call.text for call in drawn]  # no legend entry, no words
    # Numbers right-aligned at their column's right end; the points in bold.
    points = _find(drawn, "4½")
    assert points.align == "right" and points.chain == DEFAULT_FONTS.bold
    assert points.x == pytest.approx(lay.cells[0][1] - lay.pads[0])
    assert _find(drawn, "12.75").chain == DEFAULT_FONTS.regular


def test_a_withdrawn_player_is_muted_and_a_highlighted_one_bold(drawn: list[Drawn]) -> None:
    standings_image(MARKED)
    muted = (*rgb(DEFAULT_THEME.muted_text), 255)
    assert _find(drawn, "Łukasz").fill == muted
    assert _find(drawn, "5").fill == muted
    assert _find(drawn, "Борис").chain == DEFAULT_FONTS.bold
    assert _find(drawn, "Alice").chain == DEFAULT_FONTS.regular
    assert _find(drawn, "Alice").fill == (*rgb(DEFAULT_THEME.text), 255)


@pytest.mark.parametrize("theme", [DEFAULT_THEME, LIGHT_THEME], ids=["dark", "light"])
def test_every_mark_is_drawn_as_a_band_and_a_marker(theme: Theme) -> None:
    image = standings_image(MARKED, theme=theme)
    lay = standings_layout(MARKED)
    assert lay.marker is not None
    colours = {
        Mark.WINNER: theme.winner,
        Mark.PROMOTED: theme.promoted,
        Mark.RELEGATED: theme.relegated,
        Mark.WITHDRAWN: theme.muted_text,
    }
    for index, row in enumerate(MARKED.rows):
        middle = lay.rows_top + (index + 0.5) * lay.row_height
        band = at(image, (lay.left + 2, middle))
        if row.mark in (Mark.WINNER, Mark.PROMOTED, Mark.RELEGATED):
            assert near(band, colours[row.mark]), (row.mark, band)
        else:  # no band: a withdrawn player's row, or one without a mark
            assert not near(band, theme.winner) and not near(band, theme.relegated)
        centre = at(image, (lay.marker, middle))
        if row.mark is None:
            assert not near(centre, theme.winner) and not near(centre, theme.promoted)
        else:
            assert near(centre, colours[row.mark], 60), (row.mark, centre)
    # The highlighted row's outline, along its top edge.
    top = lay.rows_top + lay.row_height + 1
    assert near(at(image, ((lay.left + lay.right) / 2, top)), theme.panel_active)


def test_the_marks_differ_in_shape_not_only_in_colour() -> None:
    radius = MARKER_RADIUS * DEFAULT_STANDINGS_WIDTH
    shapes = {mark: marker(mark, "#ffffff", radius).image.getchannel("A") for mark in Mark}
    masks = {mark: shape.tobytes() for mark, shape in shapes.items()}
    assert len(set(masks.values())) == len(Mark)
    # The arrows point opposite ways: promoted's tip (a point) is at the top and the flat end
    # of its shaft at the bottom; relegated's is the same upside down.
    up, down = shapes[Mark.PROMOTED], shapes[Mark.RELEGATED]
    assert up.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes() == down.tobytes()
    left, top, right, bottom = up.getbbox() or (0, 0, 0, 0)
    quarter = (bottom - top) // 4
    tip = up.crop((left, top, right, top + quarter))
    tail = up.crop((left, bottom - quarter, right, bottom))
    assert 1.5 * sum(tip.tobytes()) < sum(tail.tobytes())


def test_the_legend_shows_the_marker_beside_its_words() -> None:
    image = standings_image(MARKED)
    lay = standings_layout(MARKED)
    assert [[entry[0] for entry in line] for line in lay.legend] == [
        [Mark.WINNER, Mark.PROMOTED, Mark.RELEGATED]
    ]
    assert not lay.footer
    # Only the marks some row has are explained.
    promoted = [row for row in MARKED.rows if row.mark is Mark.PROMOTED]
    fewer = standings_layout(dataclasses.replace(MARKED, rows=promoted))
    assert [[entry[0] for entry in line] for line in fewer.legend] == [[Mark.PROMOTED]]
    # The legend's markers, in order, on its one line.
    middle = lay.footer_top + FOOTER_LINE * DEFAULT_STANDINGS_WIDTH / 2
    colours = {Mark.WINNER: "winner", Mark.PROMOTED: "promoted", Mark.RELEGATED: "relegated"}
    for mark, _, x in lay.legend[0]:
        centre = (lay.left + x + MARKER_COLUMN * DEFAULT_STANDINGS_WIDTH / 2, middle)
        assert near(at(image, centre), getattr(DEFAULT_THEME, colours[mark]), 60), mark


def test_footer_lines_wrap_at_spaces_but_not_at_no_break_spaces() -> None:
    words = "Exempt à la ronde 3\u00a0: Marie-Hélène Dubois-Lefèvre (1 point). " * 4
    table = dataclasses.replace(_table(), footer=[words, "Départage\u00a0: Buchholz."])
    lay = standings_layout(table)
    assert len(lay.footer) > 2
    room = lay.right - lay.left
    size = round(FOOTER_SIZE * DEFAULT_STANDINGS_WIDTH)
    for line in lay.footer:
        assert F.text_width(DEFAULT_FONTS.regular, size, line) <= room
        assert not line.startswith(":") and not line.endswith("3")
    assert lay.footer[-1] == "Départage\u00a0: Buchholz."


def test_a_crosstable_fills_each_players_own_cell() -> None:
    results = ["", "1", "½", "0"], ["0", "", "1", "½"], ["½", "0", "", "1"], ["1", "½", "0", ""]
    rows = [
        StandingsRow(str(i + 1), name, [*results[i], "2"])
        for i, name in enumerate(("Ann", "Bob", "Cy", "Di"))
    ]
    columns = [Column(str(n), align="centre") for n in range(1, 5)] + [Column("Pts")]
    table = StandingsTable("RR", "", columns, rows, crosstable=True)
    image = standings_image(table)
    lay = standings_layout(table)
    widths = {round(right - left, 3) for left, right in lay.cells[:4]}
    assert len(widths) == 1  # every result column as wide as the others
    for row in range(4):
        middle = lay.rows_top + (row + 0.5) * lay.row_height
        for column in range(4):
            left = lay.cells[column][0]
            corner = at(image, (left + 3, middle - lay.row_height / 2 + 3))
            assert near(corner, DEFAULT_THEME.board) == (row == column), (row, column)
    short = [StandingsRow(row.rank, row.name, row.cells[:3]) for row in rows]
    with pytest.raises(ValueError, match="a column for each"):
        standings_image(StandingsTable("RR", "", columns[:3], short, crosstable=True))


def test_a_crosstable_of_ten_fits_a_phone_and_more_grow_wider() -> None:
    def crosstable(players: int) -> StandingsTable:
        columns = [Column(str(n + 1), align="centre") for n in range(players)]
        rows = [
            StandingsRow(
                str(i + 1),
                LONG_NAME,
                ["" if i == j else "½" for j in range(players)] + ["10½"],
                Mark.WINNER if i == 0 else None,
            )
            for i in range(players)
        ]
        return StandingsTable(
            "RR", "", [*columns, Column("Pts", emphasis=True)], rows, crosstable=True
        )

    assert standings_image(crosstable(10)).width == DEFAULT_STANDINGS_WIDTH
    wide = standings_layout(crosstable(16))
    assert wide.width > DEFAULT_STANDINGS_WIDTH
    assert wide.name[1] - wide.name[0] == pytest.approx(NAME_MIN * DEFAULT_STANDINGS_WIDTH)


def test_headers_shrink_and_are_cut_before_the_names_lose_their_room(drawn: list[Drawn]) -> None:
    columns = [Column("Points", emphasis=True), Column("Buchholz"), Column("Sonneborn-Berger")]
    columns.append(Column("Progressive"))
    rows = [StandingsRow("1", LONG_NAME, ("4½", "12.5", "10.75", "11"))]
    table = StandingsTable("Open", "", columns, rows)
    standings_image(table)
    lay = standings_layout(table)
    assert lay.name[1] - lay.name[0] >= NAME_MIN * DEFAULT_STANDINGS_WIDTH
    cut = {call.text for call in drawn if call.text.endswith("…")}
    assert {text[0] for text in cut} == {"C", "B", "S", "P"}  # the name, three headers


def test_rows_must_match_the_columns() -> None:
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        standings_image(dataclasses.replace(_table(), rows=[StandingsRow("1", "Ann", ("1", "2"))]))
    with pytest.raises(ValueError):
        standings_image(_table(), theme={"winnerr": "#ffffff"})
    assert standings_image(_table(), theme={"winner": "#ffd700"}).width == 800


def _uncovered(text: str, chain: Sequence[str]) -> set[str]:
    # The joiners and variation selectors inside emoji sequences have no glyph of their own.
    return {
        char
        for char in text
        if unicodedata.category(char) not in ("Cf", "Mn")
        and not any(F.covers(path, char) for path in chain)
    }


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man, woman, girl, joined by ZWJ
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # flag, tags


def test_emoji_sequences_in_names_are_drawn_whole(drawn: list[Drawn]) -> None:
    # The joiners of a family and the tags of England's flag are not turned into spaces (which
    # would draw three people and a black flag), and a name cut to fit keeps them whole.
    names = [f"{FAMILY} Dupont", f"{ENGLAND} Zoë", "Ann 👍🏽", f"{FAMILY} " + "Lefèvre " * 12]
    rows = [StandingsRow(str(i + 1), name, ("1", "2", "3")) for i, name in enumerate(names)]
    standings_image(dataclasses.replace(_table(), rows=rows))
    texts = {call.text for call in drawn}
    assert set(names[:3]) <= texts
    cut = [text for text in texts if text.startswith(FAMILY) and text.endswith("…")]
    assert len(cut) == 1 and cut[0].startswith(f"{FAMILY} Lefèvre"), cut
    for text in (*names[:3], cut[0]):
        emoji = F.pieces(F.DEFAULT_FONTS.regular, text)[0].text
        assert emoji in (FAMILY, ENGLAND, "Ann "), emoji


@pytest.mark.parametrize("language", ["en", "ru", "ko", "pl", "fr"])
def test_every_script_is_drawn_with_real_glyphs(drawn: list[Drawn], language: str) -> None:
    # Every character of the gallery's tables in this language, emoji included, has a glyph in
    # the chain it is drawn with.
    tables = [table for name, table, _ in standings_samples() if name.endswith(f"-{language}")]
    assert len(tables) == 4
    for table in tables:
        standings_image(table)
    assert {call.text for call in drawn} >= {tables[0].title, tables[0].subtitle}
    missing = {char for call in drawn for char in _uncovered(call.text, call.chain)}
    assert not missing, missing
    if language == "ko":  # Hangul is drawn in Noto Sans CJK, after DejaVu
        assert any(
            path in (F.NOTO_SANS_CJK, F.NOTO_SANS_KR_BOLD)
            for call in drawn
            for path, _ in F.runs(call.chain, call.text)
        )


@pytest.mark.parametrize("theme", [DEFAULT_THEME, LIGHT_THEME], ids=["dark", "light"])
def test_text_stands_out_at_least_four_and_a_half_to_one(theme: Theme) -> None:
    # Body text and the muted headers, legend and footer, on the background and on every
    # other row's stripe; the marks (shapes and bands, not text) at least 3:1.
    for ground in (theme.background, theme.panel):
        for text in (theme.text, theme.muted_text):
            assert contrast(rgb(text), rgb(ground)) >= 4.5, (text, ground)
        for mark in (theme.winner, theme.promoted, theme.relegated):
            assert contrast(rgb(mark), rgb(ground)) >= 3.0, (mark, ground)
    # The crosstable's own cells stay apart from the rows, and the outline from the stripes.
    assert contrast(rgb(theme.panel_active), rgb(theme.panel)) >= 3.0


def test_the_gallery_tables_read_on_a_phone() -> None:
    # Every gallery table fits the default width (so Discord scales it to exactly 390 px on a
    # phone), and its names keep their room.
    for name, table, theme in standings_samples():
        image = standings_image(table, theme=theme)
        assert image.width == DEFAULT_STANDINGS_WIDTH, name
        lay = standings_layout(table)
        assert lay.name[1] - lay.name[0] >= NAME_MIN * DEFAULT_STANDINGS_WIDTH, name


def test_the_gallery_writes_each_table_as_drawn_and_as_a_phone_shows_it(tmp_path: Path) -> None:
    write_standings(tmp_path)
    names = [name for name, _, _ in standings_samples()]
    assert len(names) == 4 * 5 + 4  # four formats, five languages, English in the light theme too
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == sorted([f"{name}.png" for name in names] + [f"{n}-390.png" for n in names])
    phone = Image.open(tmp_path / "league-ko-390.png")
    assert phone.format == "PNG" and phone.width == PHONE_WIDTH
