"""Render a gallery of sample positions to a folder, to look at the images as players will.

Usage: ``python -m tools.gallery out/ [--size 800] [--no-replay] [--standings]``; also
writes ``review-graph.png``, a game review's evaluation graph, ``replay.gif``, an animated
replay of a whole random game, and with ``--standings``, ``standings/``: tournament standings
(a round robin's crosstable, a Swiss, a knockout, a league's division) in the five languages,
each also as a phone shows it (``-390.png``: scaled down to 390 px wide).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from PIL import Image

from render.board import encode_png
from render.geometry import DEFAULT_WIDTH
from render.replay import replay_gif
from render.standings import Column, Mark, StandingsRow, StandingsTable, standings_image
from render.theme import DEFAULT_THEME, LIGHT_THEME, Theme
from tools.gallery import samples
from tools.gallery.samples import REPLAY_GAME_SEED, game_moves, graph_sample

PHONE_WIDTH: Final = 390
"""How wide Discord shows an image on a phone."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the PNG files")
    parser.add_argument("--size", type=int, default=DEFAULT_WIDTH, help="image width in pixels")
    parser.add_argument(
        "--no-replay", dest="replay", action="store_false", help="skip the animated replay"
    )
    parser.add_argument(
        "--standings", action="store_true", help="also tournament standings, in standings/"
    )
    args = parser.parse_args(argv)
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples.samples():
        png = sample.png(size=args.size)
        path = folder / f"{sample.name}.png"
        path.write_bytes(png)
        print(f"{path}  {len(png) / 1024:.0f} KB")
    graph = graph_sample()
    png = graph.png(size=args.size)
    path = folder / f"{graph.name}.png"
    path.write_bytes(png)
    print(f"{path}  {len(png) / 1024:.0f} KB")
    if args.replay:
        gif = replay_gif(game_moves(REPLAY_GAME_SEED), players=("Alice", "Борис"))
        path = folder / "replay.gif"
        path.write_bytes(gif)
        print(f"{path}  {len(gif) / 1024:.0f} KB")
    if args.standings:
        write_standings(folder / "standings")


def write_standings(folder: Path) -> None:
    """The standings samples as PNG files in ``folder``: each as drawn, and as a phone shows
    it (scaled down to :data:`PHONE_WIDTH`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, table, theme in standings_samples():
        image = standings_image(table, theme=theme)
        phone = image.resize(
            (PHONE_WIDTH, round(image.height * PHONE_WIDTH / image.width)),
            Image.Resampling.LANCZOS,
        )
        for suffix, picture in (("", image), (f"-{PHONE_WIDTH}", phone)):
            png = encode_png(picture)
            path = folder / f"{name}{suffix}.png"
            path.write_bytes(png)
            print(f"{path}  {len(png) / 1024:.0f} KB")


@dataclass(frozen=True, slots=True)
class _Words:
    """One language's texts for the sample tables, as the bot's catalogues would give them;
    each field's parts are separated by ``|``."""

    headers: str
    """Player, points, games, won, drawn, lost, Buchholz, Sonneborn-Berger, round reached,
    games won-lost."""
    titles: str
    """Round robin, Swiss, knockout and league: each a title and a subtitle."""
    stages: str
    """Winner, final, semi-final, quarter-final."""
    legend: str
    """Champion, promoted, relegated, withdrew."""
    footers: str
    """A bye (``{name}``), the tie-breaks, the knockout's winner (``{name}``)."""
    names: str
    """Ten players, some with long names, one from another language."""
    decimal: str = "."

    def numbers(self, line: str) -> list[str]:
        """``line``'s words, with this language's decimal separator."""
        return line.replace(".", self.decimal).split()


_LANGUAGES: Final = {
    "en": _Words(
        "Player|Pts|G|W|D|L|BH|SB|Reached|Games",
        "Club Championship 2025|Round robin · after round 5 of 5|Spring Open|"
        "Swiss · after round 4 of 5|Winter Cup|Knockout · final standings|"
        "DVONN League · Division 2|Season 3 · final table",
        "Winner|Final|Semi-final|Quarter-final",
        "champion|promoted to Division 1|relegated to Division 3|withdrew",
        "Bye in round 3: {name} (1 point).|"
        "Ties are broken by Buchholz (BH), then Sonneborn–Berger (SB).|"
        "{name} wins the Winter Cup!",
        "Alice|Charlotte Featherstonehaugh-Whitmore|Bob|dvonn_destroyer_2000|Priya|Sam 🎲|"
        "Olivia Thompson|김민준|Tom|Zoë",
    ),
    "ru": _Words(
        "Игрок|Очки|И|В|Н|П|Бх|ЗБ|Итог|Партии",
        "Чемпионат клуба 2025|Круговой турнир · после 5-го тура из 5|Весенний опен|"
        "Швейцарская система · после 4-го тура из 5|Зимний кубок|"
        "На выбывание · итоговая таблица|Лига DVONN · Второй дивизион|"
        "Сезон 3 · итоговая таблица",
        "Победитель|Финал|1/2 финала|1/4 финала",
        "победитель|переходит в Первый дивизион|выбывает в Третий дивизион|снялся с турнира",
        "Без пары в 3-м туре: {name} (1 очко).|"
        "При равенстве очков: коэффициент Бухгольца (Бх), затем Зоннеборна — Бергера (ЗБ).|"
        "{name} выигрывает Зимний кубок!",
        "Алексей|Екатерина Великолепная-Долгорукова|Борис|Дмитрий Шостакович|Ольга|"
        "Иван Иванович Иванов|Наташа|Marie-Hélène|Юрий|Света",
        decimal=",",
    ),
    "ko": _Words(
        "선수|승점|경기|승|무|패|BH|SB|성적|전적",
        "2025 클럽 선수권|리그전 · 5라운드 중 5라운드 종료|봄 오픈|"
        "스위스 방식 · 5라운드 중 4라운드 종료|겨울 컵|토너먼트 · 최종 순위|"
        "DVONN 리그 · 2부|시즌 3 · 최종 순위",
        "우승|준우승|4강|8강",
        "우승|1부 승격|3부 강등|기권",
        "3라운드 부전승: {name} (1점)|"
        "동점이면 부흐홀츠(BH), 그다음 존네보른-베르거(SB) 순으로 가립니다.|"
        "{name} 님, 겨울 컵 우승을 축하합니다!",
        "김민준|최수아 (DVONN 마스터)|이서연|박지훈|정하은|강도윤|윤서준|Alice|장예린|한지민",
    ),
    "pl": _Words(
        "Gracz|Pkt|P|W|R|Pr|Buch.|SB|Wynik|Partie",
        "Mistrzostwa klubu 2025|Każdy z każdym · po 5. rundzie z 5|Wiosenny Open|"
        "System szwajcarski · po 4. rundzie z 5|Puchar Zimowy|"
        "Pucharowy · klasyfikacja końcowa|Liga DVONN · Dywizja 2|Sezon 3 · tabela końcowa",
        "Zwycięzca|Finał|Półfinał|Ćwierćfinał",
        "zwycięzca|awans do Dywizji 1|spadek do Dywizji 3|wycofał(a) się",
        "Pauza w 3. rundzie: {name} (1 punkt).|"
        "Przy równej liczbie punktów decyduje Buchholz (Buch.), potem Sonneborn-Berger (SB).|"
        "{name} wygrywa Puchar Zimowy!",
        "Krzysztof Brzęczyszczykiewicz|Zofia|Małgorzata Żółkiewska-Wiśniewska|Grzegorz|"
        "Łukasz|Agnieszka|Paweł Ślązak|Алексей|Wojtek|Ewa",
        decimal=",",
    ),
    "fr": _Words(
        "Joueur|Pts|J|G|N|P|Buch.|SB|Parcours|Parties",
        "Championnat du club 2025|Toutes rondes · après la ronde 5 sur 5|Open de printemps|"
        "Système suisse · après la ronde 4 sur 5|Coupe d’hiver|"
        "Élimination directe · classement final|Ligue DVONN · Division 2|"
        "Saison 3 · classement final",
        "Vainqueur|Finale|Demi-finale|Quart de finale",
        "vainqueur|monte en Division 1|descend en Division 3|a abandonné",
        # No-break spaces before the colon and the exclamation mark, as French sets them.
        "Exempt à la ronde 3\u00a0: {name} (1 point).|"
        "Départage\u00a0: Buchholz (Buch.), puis Sonneborn-Berger (SB).|"
        "{name} remporte la Coupe d’hiver\u00a0!",
        "Marie-Hélène Dubois-Lefèvre|Zoë|Jean-Baptiste|François|Anaïs|Élodie Château-Rénaud|"
        "Gaëtan|Krzysztof|Léa|Benoît",
        decimal=",",
    ),
}


def _round_robin(words: _Words) -> StandingsTable:
    """Six players, every round played: the crosstable, the champion starred, the players of
    the last game outlined."""
    player, points, *_, sb, _, _ = words.headers.split("|")
    results = ("-1½111", "0-1½11", "½0-1½1", "0½0-11", "00½0-1", "00000-")
    totals = ("4½ 9.00", "3½ 5.75", "3 5.50", "2½ 3.25", "1½ 1.50", "0 0.00")
    columns = [Column(str(number), align="centre") for number in range(1, 7)]
    columns += [Column(points, emphasis=True), Column(sb)]
    rows = [
        StandingsRow(
            str(index + 1),
            name,
            [result.strip("-") for result in results[index]] + words.numbers(totals[index]),
            Mark.WINNER if index == 0 else None,
            highlight=index in (3, 4),
        )
        for index, name in enumerate(words.names.split("|")[:6])
    ]
    title, subtitle = words.titles.split("|")[0:2]
    legend = {Mark.WINNER: words.legend.split("|")[0]}
    return StandingsTable(
        title, subtitle, columns, rows, legend=legend, name_header=player, crosstable=True
    )


def _swiss(words: _Words) -> StandingsTable:
    """Nine players after four rounds: a bye, a shared place, a player who withdrew."""
    player, points, games, _, _, _, bh, sb, _, _ = words.headers.split("|")
    lines = ["1 4 4 9.5 9.50", "2 3 4 10 7.00", "3= 3 4 8.5 6.50", "3= 3 4 8.5 6.50"]
    lines += ["5 2 4 9 4.00", "6 2 4 7 3.50", "7 1½ 4 8 2.75", "8 1 3 6.5 0.50", "9 ½ 2 5 0.25"]
    columns = (Column(points, emphasis=True), Column(games), Column(bh), Column(sb))
    names = words.names.split("|")
    rows = []
    for index, line in enumerate(lines):
        rank, *cells = words.numbers(line)
        withdrawn = Mark.WITHDRAWN if index == 8 else None
        rows.append(StandingsRow(rank, names[index], cells, withdrawn, highlight=index < 2))
    title, subtitle = words.titles.split("|")[2:4]
    bye, ties, _ = words.footers.split("|")
    return StandingsTable(
        title,
        subtitle,
        columns,
        rows,
        footer=(bye.format(name=names[7]), ties),
        legend={Mark.WITHDRAWN: words.legend.split("|")[3]},
        name_header=player,
    )


def _knockout(words: _Words) -> StandingsTable:
    """Eight players, the final played: how far each came, the winner starred."""
    player, *_, reached, record = words.headers.split("|")
    stages = words.stages.split("|")
    lines = ((0, "3–0"), (1, "2–1"), (2, "1–1"), (2, "1–1")) + ((3, "0–1"),) * 4
    ranks = ("1", "2", "3=", "3=", "5=", "5=", "5=", "5=")
    names = words.names.split("|")[:8]
    rows = [
        StandingsRow(rank, name, (stages[stage], games), Mark.WINNER if rank == "1" else None)
        for rank, name, (stage, games) in zip(ranks, names, lines, strict=True)
    ]
    title, subtitle = words.titles.split("|")[4:6]
    return StandingsTable(
        title,
        subtitle,
        (Column(reached, align="left"), Column(record, align="centre")),
        rows,
        footer=(words.footers.split("|")[2].format(name=names[0]),),
        legend={Mark.WINNER: words.legend.split("|")[0]},
        name_header=player,
    )


def _league(words: _Words) -> StandingsTable:
    """A division of ten after its season: two go up, two go down."""
    player, points, games, won, drawn, lost, *_ = words.headers.split("|")
    lines = ["7 1 1 7½", "6 2 1 6½", "6 0 3 6", "5 1 3 5½", "4 2 3 5", "4 1 4 4½", "3 2 4 4"]
    lines += ["3 1 5 3½", "2 1 6 2½", "1 1 7 1½"]
    columns = [Column(text) for text in (games, won, drawn, lost)]
    columns.append(Column(points, emphasis=True))
    marks = {0: Mark.PROMOTED, 1: Mark.PROMOTED, 8: Mark.RELEGATED, 9: Mark.RELEGATED}
    rows = [
        StandingsRow(
            str(index + 1),
            name,
            ["9", *line.split()],
            marks.get(index),
            highlight=index in (1, 5),
        )
        for index, (name, line) in enumerate(zip(words.names.split("|"), lines, strict=True))
    ]
    title, subtitle = words.titles.split("|")[6:8]
    _, up, down, _ = words.legend.split("|")
    return StandingsTable(
        title,
        subtitle,
        columns,
        rows,
        legend={Mark.PROMOTED: up, Mark.RELEGATED: down},
        name_header=player,
    )


def standings_samples() -> list[tuple[str, StandingsTable, Theme]]:
    """Standings tables to look at: a round robin's crosstable, a Swiss, a knockout and a
    league's division, in each of the bot's five languages (the dark theme), and the English
    ones again in the light theme; each with a file-name-friendly name."""
    kinds = (
        ("round-robin", _round_robin),
        ("swiss", _swiss),
        ("knockout", _knockout),
        ("league", _league),
    )
    out = []
    for language, words in _LANGUAGES.items():
        for kind, build in kinds:
            table = build(words)
            out.append((f"{kind}-{language}", table, DEFAULT_THEME))
            if language == "en":
                out.append((f"{kind}-{language}-light", table, LIGHT_THEME))
    return out
