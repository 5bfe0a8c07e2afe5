"""The Draws page's pure helpers (contract §13): entries from pasted lines or a player list, the bracket drawn as a
bracket (rounds as columns, lines from each match to the next), group standings, and the A4 print sheet.

Everything here works on the API's draw read; nothing calls the API.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from domain.draws.labels import CONSOLE_STAGE_TITLES
from domain.draws.read import draw_from_json, playoff_brackets, short_round_names
from domain.draws.standings import CUSTOM_STEPS, Placed, rule_words, tie_notes
from domain.names import full_name

Json = dict[str, Any]

FORMATS = {"single_elimination": "Knockout", "round_robin": "Round robin (groups)",
           "groups_knockout": "Groups, then knockout", "double_elimination": "Double elimination", "swiss": "Swiss",
           "consolation": "Knockout with a consolation draw", "feed_in": "Knockout with a feed-in consolation",
           "playoff_all": "Knockout, every place played off", "round_robin_playoff": "Groups, then places played off"}
SEPARATORS = re.compile(r"\t|;|,")
# The tie-break rules of contract §22 the New draw form offers, for the formats ranked by standings.
RANKED = ("round_robin", "groups_knockout", "swiss")
TIEBREAKS = {"default": "Courtside's: wins, head-to-head, game and point difference, seed", "bwf": "BWF (badminton)",
             "ittf": "ITTF (table tennis): match points", "custom": "Steps of my own"}
STEPS = {step: step.replace("_", " ").replace("head to head", "head-to-head").capitalize() for step in CUSTOM_STEPS}


@dataclass(frozen=True)
class Parsed:
    """Entries read from pasted lines, and one message per line that could not be read."""

    entries: list[Json]
    problems: list[str]


def parse_entries(text: str) -> Parsed:
    """One entry a line: `Name`, then optionally a seed and a club, separated by tab, `;` or `,` (in any order
    after the name: a whole number is the seed, anything else the club). Doubles: `Ann Lee / Bo Kim`."""
    entries: list[Json] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = [p.strip() for p in SEPARATORS.split(line)]
        if not parts or not parts[0]:
            if any(parts):
                problems.append(f"Line {number}: the name comes first.")
            continue
        entry: Json = {"players": [{"manualName": name.strip()} for name in parts[0].split("/") if name.strip()]}
        for part in parts[1:]:
            if not part:
                continue
            if part.isdigit():
                if "seed" in entry:
                    problems.append(f"Line {number}: two seeds ({entry['seed']} and {part}).")
                entry["seed"] = int(part)
            elif "club" in entry:
                problems.append(f"Line {number}: two clubs ({entry['club']} and {part}).")
            else:
                entry["club"] = part
        entries.append(entry)
    return Parsed(entries, problems)


def player_name(player: Json) -> str:
    return full_name(player) or str(player.get("name") or "")


def rating_seeds(player_list: Json, picked: list[str], count: int) -> dict[str, int | None]:
    """Seeds 1..`count` for the best-rated of the picked players (by externalID), highest rating first, ties in
    name order; unrated players are never seeded (issue 51.8: "no seeding by rating")."""
    by_id = {str(p.get("externalID")): p for p in player_list.get("players", [])}
    rated = sorted((i for i in picked if isinstance(by_id[i].get("rating"), int | float)),
                   key=lambda i: (-float(by_id[i]["rating"]), player_name(by_id[i]).casefold()))
    return {external_id: seed for seed, external_id in enumerate(rated[:count], start=1)}


def genders(player_list: Json) -> list[str]:
    """The genders written on a list's players, in order (a men's draw from a mixed list picks one)."""
    return sorted({str(p["gender"]) for p in player_list.get("players", []) if p.get("gender")})


def list_entries(player_list: Json, picked: list[str], *, seeds: dict[str, int | None] | None = None,
                 partners: dict[str, str | None] | None = None, doubles: bool = False) -> Parsed:
    """The entries of picked players (by externalID) of a player list, with the player's club: one each, or in
    doubles one for each player and the partner picked for them (a player picked as a partner makes no entry of
    their own). `seeds` gives an entry its player's seed. What cannot make a draw (no partner, a player in two
    pairs, a seed given twice) is a problem in words; nothing is typed as text (issue 35)."""
    seeds, partners = seeds or {}, partners or {}
    reference = player_list.get("externalID") or player_list["id"]
    by_id = {str(p.get("externalID")): p for p in player_list.get("players", [])}
    entries: list[Json] = []
    problems: list[str] = []
    taken: dict[str, str] = {}  # a player already in an entry -> the first player of that entry
    seen_seeds: dict[int, str] = {}
    for external_id in picked:
        if external_id in taken:
            continue
        player = by_id[external_id]
        name = player_name(player)
        members = [external_id]
        if doubles:
            partner = partners.get(external_id)
            if not partner:
                problems.append(f"Pick a partner for {name}.")
                continue
            if partner == external_id or partner in taken:
                problems.append(f"{player_name(by_id[partner])} is already in a pair; pick another partner for "
                                f"{name}.")
                continue
            members.append(partner)
        taken.update({member: external_id for member in members})
        entry: Json = {"players": [{"playerListExternalID": reference, "externalID": m} for m in members]}
        clubs = {by_id[m].get("clubName") for m in members} - {None, ""}
        if len(clubs) == 1:
            entry["club"] = clubs.pop()
        seed = seeds.get(external_id)
        if seed is not None:
            if seed in seen_seeds:
                problems.append(f"Seed {seed} is given to {seen_seeds[seed]} and to {name}.")
            seen_seeds[seed] = name
            entry["seed"] = seed
        entries.append(entry)
    return Parsed(entries, problems)


OPEN = ("waiting", "ready", "active")


def still_in(draw: Json) -> list[str]:
    """The entries that may still withdraw, in entry order: not withdrawn and not yet out (issue 35: the withdraw
    list offered players already knocked out). An entry is in while it has a match to come (a waiting, ready or
    active draw match names it), while its group is still playing, or, in Swiss, while the draw runs."""
    if draw.get("status") == "complete":
        return []
    matches = [dm for r in draw.get("rounds", []) for dm in r["drawMatches"]]
    playing = {s["entryID"] for dm in matches if dm["status"] in OPEN for s in dm["slots"] if s.get("entryID")}
    for group in draw.get("groups", []):
        if any(dm["status"] in OPEN for dm in matches if dm.get("group") == group["name"]):
            playing |= set(group["entryIDs"])
    if draw.get("format") == "swiss":
        playing |= {e["id"] for e in draw["entries"]}
    return [e["id"] for e in draw["entries"] if not e.get("withdrawn") and e["id"] in playing]


def replaceable(draw: Json) -> list[str]:
    """The withdrawn entries whose place a new entry may take (contract §22), in entry order."""
    if draw.get("status") == "complete":
        return []
    return [e["id"] for e in draw["entries"] if e.get("withdrawn")]


def lucky_losers(draw: Json) -> list[str]:
    """The entries that are out of the draw but did not withdraw (a lucky loser comes back from them, §22)."""
    playing = set(still_in(draw))
    return [e["id"] for e in draw["entries"] if not e.get("withdrawn") and e["id"] not in playing]


def replacement_body(draw: Json, *, lucky_loser: str | None, typed: str) -> Json:
    """The replace body: a lucky loser's players as the draw names them (a list player stays one), else the names
    typed ("Ann Lee", doubles "Ann Lee / Bo Kim")."""
    if lucky_loser is not None:
        entry = next(e for e in draw["entries"] if e["id"] == lucky_loser)
        players = [{k: v for k, v in p.items() if k != "name"} for p in entry["players"]]  # the reference, not its name
        return {"players": players} | ({"club": entry["club"]} if entry.get("club") else {})
    return {"players": [{"manualName": name.strip()} for name in typed.split("/") if name.strip()]}


def entry_names(draw: Json) -> dict[str, str]:
    """Entry ID → what to show: the name, `(seed)` first when seeded."""
    return {e["id"]: (f"({e['seed']}) " if e.get("seed") else "") + str(e["name"]) for e in draw["entries"]}


# ------------------------------------------------------------------ the bracket
STYLE = """
<style>
.cs-draw{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff}
.cs-draw h3{font-size:16px;margin:14px 0 6px}
.cs-stage{display:flex;align-items:stretch;overflow-x:auto;padding-bottom:6px}
.cs-round{display:flex;flex-direction:column;min-width:210px}
.cs-round-name{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#555;
  text-align:center;padding:0 18px 6px}
.cs-cells{display:flex;flex-direction:column;flex:1}
.cs-cell{flex:1;display:flex;align-items:center;position:relative;padding:5px 22px}
.cs-match{width:100%;border:1px solid #9aa3ad;border-radius:6px;background:#fff;font-size:13px;overflow:hidden}
.cs-slot{display:flex;justify-content:space-between;gap:8px;padding:4px 8px;white-space:nowrap}
.cs-slot+.cs-slot{border-top:1px solid #dde1e5}
.cs-slot.win{font-weight:700}
.cs-slot.out{color:#777;text-decoration:line-through}
.cs-slot.tbd{color:#888;font-style:italic}
.cs-tag{font-size:11px;color:#555;font-weight:400}
.cs-games{font-variant-numeric:tabular-nums;min-width:1em;text-align:right}
.cs-match.active{border-color:#1b7f3b;box-shadow:0 0 0 2px #1b7f3b33}
.cs-h-in,.cs-h-out{position:absolute;top:50%;width:22px;border-top:2px solid #9aa3ad}
.cs-h-in{left:0}.cs-h-out{right:0}
.cs-v-down,.cs-v-up{position:absolute;right:0;border-right:2px solid #9aa3ad}
.cs-v-down{top:50%;bottom:0}.cs-v-up{top:0;bottom:50%}
.cs-table{border-collapse:collapse;font-size:13px;margin:4px 0 12px}
.cs-table th,.cs-table td{border:1px solid #c5cbd2;padding:3px 8px;text-align:right}
.cs-table th:nth-child(2),.cs-table td:nth-child(2){text-align:left;min-width:160px}
.cs-groups{display:flex;flex-wrap:wrap;gap:0 28px}
.cs-ties{font-size:13px;margin:-6px 0 12px}.cs-ties ul{margin:2px 0 0;padding-left:18px}.cs-ties-rule{opacity:.7}
.cs-placings{font-size:14px;list-style:none;padding:0}
.cs-placings.many{columns:3 12em}
.cs-playoffs{display:flex;flex-wrap:wrap;gap:4px 28px;align-items:flex-start}
.cs-playoff{break-inside:avoid}
.cs-playoff h4{font-size:14px;margin:8px 0 4px}
</style>
"""

STATUS_TAGS = {"active": "playing", "ready": "waiting for a court", "bye": "bye"}


Games = dict[str, tuple[int, int]]  # real match ID -> games won by side A (slot 0) and side B (slot 1)


def games_won(matches: list[Json]) -> Games:
    """Games (sets) won on each side of the draw's real matches (active or complete), for the bracket: the
    server's `score`, counted under each match's format."""
    return {m["id"]: (int(m["score"]["a"]), int(m["score"]["b"])) for m in matches if m.get("score")}


def _slot_html(draw_match: Json, index: int, names: dict[str, str], froms: dict[str, str],
               games: Games | None = None) -> str:
    slot = draw_match["slots"][index]
    entry_id = slot.get("entryID")
    if entry_id:
        css = "win" if draw_match.get("winnerEntryID") == entry_id else (
            "out" if draw_match.get("loserEntryID") == entry_id else "")
        text = html.escape(names.get(entry_id, entry_id))
    else:
        css, text = "tbd", html.escape(_source_words(slot.get("from"), froms, draw_match["status"]))
    mark = ""
    won = (games or {}).get(draw_match.get("matchID") or "")
    if draw_match.get("winnerEntryID") == entry_id and entry_id and draw_match.get("resultType") == "walkover":
        mark = "<span class='cs-tag'>w/o</span>"
    elif won is not None and entry_id and draw_match["status"] in ("active", "complete"):
        mark = f"<span class='cs-games'>{won[index]}</span>"
    return f"<div class='cs-slot {css}'><span>{text}</span>{mark}</div>"


def _source_words(source: Json | None, froms: dict[str, str], status: str) -> str:
    """What an empty slot waits for: `Winner QF 2`, `Loser SF 1`, `A2` (a group's place), or `bye`."""
    if status == "bye" or source is None:  # a slot nothing can fill: its opponent goes on at once
        return "bye"
    if "group" in source:
        return f"{source['group']}{source['rank']}"
    label = froms.get(source["drawMatchID"], "")
    return f"{'Winner' if source['outcome'] == 'winner' else 'Loser'} {label}".strip()


def _labels(draw: Json) -> dict[str, str]:
    """Draw match ID → a short label (`QF 2`, `R1 3`) for 'Winner QF 2' in slots not yet known: each round's short
    form made from its structure (`domain.draws.read.short_round_names`), never parsed back from its name."""
    labels: dict[str, str] = {}
    if not draw.get("rounds"):
        return labels
    for rnd, short in zip(draw["rounds"], short_round_names(draw_from_json(draw)), strict=True):
        for dm in rnd["drawMatches"]:
            labels[dm["id"]] = f"{short} {dm['number']}"
    return labels


def _match_html(draw_match: Json, names: dict[str, str], froms: dict[str, str], games: Games | None) -> str:
    tag = STATUS_TAGS.get(draw_match["status"])
    title = f" title='{tag}'" if tag else ""
    slots = "".join(_slot_html(draw_match, i, names, froms, games) for i in (0, 1))
    return f"<div class='cs-match {draw_match['status']}'{title}>{slots}</div>"


def stage_html(rounds: list[Json], names: dict[str, str], froms: dict[str, str], *, lines: bool = True,
               games: Games | None = None) -> str:
    """One stage as columns of rounds; with `lines`, each match is joined to the match it feeds in the next
    column (pairs to one when the next round has half as many, straight across when as many)."""
    columns = []
    for index, rnd in enumerate(rounds):
        matches = rnd["drawMatches"]
        following = rounds[index + 1]["drawMatches"] if index + 1 < len(rounds) else []
        halves = lines and len(following) * 2 == len(matches)
        straight = lines and bool(following) and len(following) == len(matches)
        came_in = lines and index > 0
        cells = []
        for position, dm in enumerate(matches):
            parts = ["<span class='cs-h-in'></span>"] if came_in else []
            if halves or straight:
                parts.append("<span class='cs-h-out'></span>")
            if halves:
                parts.append(f"<span class='cs-v-{'down' if position % 2 == 0 else 'up'}'></span>")
            cells.append(f"<div class='cs-cell'>{''.join(parts)}{_match_html(dm, names, froms, games)}</div>")
        columns.append(f"<div class='cs-round'><div class='cs-round-name'>{html.escape(str(rnd['name']))}</div>"
                       f"<div class='cs-cells'>{''.join(cells)}</div></div>")
    return f"<div class='cs-stage'>{''.join(columns)}</div>"


def placed(draw: Json, group: Json) -> list[Placed]:
    """A group's standing rows as the tie-break words take them."""
    names = entry_names(draw)
    return [Placed(name=names.get(row["entryID"], ""), rank=row["rank"], decided_by=row.get("decidedBy"),
                   played=row["played"]) for row in group["standings"]]


def tiebreak_notes(draw: Json, group: Json) -> str:
    """Under a group's table: which tie-break step decided a place, in words ("Bea 2nd on head-to-head"), with the
    draw's rule (contract §22); nothing before a match of the group is played."""
    lines = tie_notes(placed(draw, group))
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    rule = html.escape(rule_words(draw.get("tiebreak")))
    return f"<div class='cs-ties'><div class='cs-ties-rule'>Tie-breaks: {rule}</div><ul>{items}</ul></div>"


def standing_units(draw: Json) -> tuple[str, str]:
    """What a standing's `gamesWon` and `pointsWon` count in the draw's format: sets and games (tennis, padel),
    else games and points (issue 51: tennis standings said "Games" for sets)."""
    return ("Sets", "Games") if (draw.get("scoring") or {}).get("kind") == "sets" else ("Games", "Points")


def standings_html(draw: Json) -> str:
    """Each group's table: rank, entry, played, won, lost, games and points (sets and games in a sets format) for
    and against; under it, the places a tie-break step decided."""
    names = entry_names(draw)
    big, small = standing_units(draw)
    withdrawn = {e["id"] for e in draw["entries"] if e.get("withdrawn")}
    tables = []
    for group in draw["groups"]:
        rows = "".join(
            f"<tr><td>{s['rank']}</td><td>{html.escape(names.get(s['entryID'], ''))}"
            f"{' (withdrawn)' if s['entryID'] in withdrawn else ''}</td><td>{s['played']}</td><td>{s['won']}</td>"
            f"<td>{s['lost']}</td><td>{s['gamesWon']}:{s['gamesLost']}</td><td>{s['pointsWon']}:{s['pointsLost']}</td>"
            "</tr>" for s in group["standings"])
        tables.append(f"<div><h3>Group {html.escape(str(group['name']))}</h3><table class='cs-table'><thead><tr>"
                      f"<th>#</th><th>Entry</th><th>P</th><th>W</th><th>L</th><th>{big}</th><th>{small}</th></tr>"
                      f"</thead><tbody>{rows}</tbody></table>{tiebreak_notes(draw, group)}</div>")
    return f"<div class='cs-groups'>{''.join(tables)}</div>" if tables else ""


def playoffs_html(draw: Json, names: dict[str, str], froms: dict[str, str], games: Games | None) -> str:
    """Each play-off sub-bracket (`domain.draws.read.playoff_brackets`, the event page's grouping) drawn as a
    bracket under its places (`Places 5-8`), side by side as room allows."""
    rounds = {rnd["drawMatches"][0]["id"]: rnd for rnd in draw["rounds"] if rnd["drawMatches"]}
    groups = [[rounds[rnd.draw_matches[0].id] for rnd in group] for group in playoff_brackets(draw_from_json(draw))]
    parts = [f"<div class='cs-playoff'><h4>{html.escape(str(group[0]['name']))}</h4>"
             f"{stage_html(group, names, froms, games=games)}</div>" for group in groups]
    return f"<div class='cs-playoffs'>{''.join(parts)}</div>"


def bracket_html(draw: Json, *, groups: bool = True, games: Games | None = None) -> str:
    """The whole draw as HTML: group tables (with `groups`), then each stage's rounds as columns. Group rounds are
    not drawn (the tables say it all); a Swiss draw's rounds are columns without lines (nobody feeds a match)."""
    names = entry_names(draw)
    froms = _labels(draw)
    parts = [STYLE, "<div class='cs-draw'>"]
    if groups:
        parts.append(standings_html(draw))
    stages: dict[str, list[Json]] = {}
    for rnd in draw["rounds"]:
        stages.setdefault(str(rnd["stage"]), []).append(rnd)
    shown = [s for s in stages if s != "group"]
    for stage in shown:
        if len(shown) > 1 or draw["groups"]:
            parts.append(f"<h3>{CONSOLE_STAGE_TITLES.get(stage, stage)}</h3>")
        if stage == "playoff":
            parts.append(playoffs_html(draw, names, froms, games))
            continue
        parts.append(stage_html(stages[stage], names, froms, lines=stage != "swiss", games=games))
    placings = draw.get("placings") or []
    if placings:
        items = "".join(f"<li>{'Consolation winner: ' if p.get('stage') == 'consolation' else str(p['place']) + '. '}"
                        f"{html.escape(names.get(p['entryID'], ''))}</li>" for p in placings)
        many = " many" if len(placings) > 8 else ""  # a place for every entry: in columns
        parts.append(f"<h3>Placings</h3><ol class='cs-placings{many}'>{items}</ol>")
    parts.append("</div>")
    return "".join(parts)


def fixtures_html(draw: Json, games: Games | None = None) -> str:
    """Each group's matches round by round, the winner in bold with the result once decided (games won, or w/o /
    ret.): what a round robin plays, for the sheet on the desk. Empty for a draw without groups."""
    names = entry_names(draw)
    by_group: dict[str, list[tuple[str, Json]]] = {}
    for rnd in draw["rounds"]:
        if rnd["stage"] == "group":
            for draw_match in rnd["drawMatches"]:
                by_group.setdefault(str(draw_match.get("group") or ""), []).append((str(rnd["name"]), draw_match))
    tables = []
    for group, rows in by_group.items():
        lines = []
        for round_name, draw_match in rows:
            sides = [f"<b>{html.escape(names.get(slot.get('entryID') or '', ''))}</b>"
                     if slot.get("entryID") and slot.get("entryID") == draw_match.get("winnerEntryID")
                     else html.escape(names.get(slot.get("entryID") or "", "")) for slot in draw_match["slots"]]
            won = (games or {}).get(draw_match.get("matchID") or "")
            result = {"walkover": "w/o", "retired": "ret."}.get(str(draw_match.get("resultType")), "")
            if draw_match.get("winnerEntryID") and won and not result:
                result = f"{won[0]}–{won[1]}"
            lines.append(f"<tr><td>{html.escape(round_name)}</td><td>{sides[0]}</td>"
                         f"<td>{sides[1]}</td><td>{html.escape(result)}</td></tr>")
        tables.append(f"<div><h3>Group {html.escape(group)}: matches</h3>"
                      "<table class='cs-table cs-fixtures'><thead><tr><th>Round</th><th>Side A</th>"
                      "<th>Side B</th><th>Result</th></tr></thead>"
                      f"<tbody>{''.join(lines)}</tbody></table></div>")
    return f"<div class='cs-groups'>{''.join(tables)}</div>" if tables else ""


def print_sheet(draw: Json, event: str, games: Games | None = None) -> str:
    """The draw on one A4 page to print: black on white, no controls, landscape when the bracket is wide."""
    wide = sum(1 for r in draw["rounds"] if r["stage"] != "group") > 3
    title = html.escape(f"{draw['name']} · {event}")
    body = bracket_html(draw, games=games) + fixtures_html(draw, games)
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{title}</title><style>@page{{size:A4 {'landscape' if wide else 'portrait'};margin:12mm}}"
            "body{margin:0;background:#fff;color:#000;font-family:system-ui,sans-serif}"
            "@media screen{body{margin:16px}}h1{font-size:20px;margin:0 0 4px}.cs-sub{font-size:12px;margin:0 0 10px}"
            "</style></head><body>"
            f"<h1>{html.escape(str(draw['name']))}</h1><p class='cs-sub'>{html.escape(event)} · "
            f"{FORMATS.get(draw['format'], draw['format'])} · {len(draw['entries'])} entries</p>{body}"
            # after the screen style of `bracket_html`, so that black on white wins
            "<style>.cs-draw,.cs-slot,.cs-slot.out,.cs-slot.tbd,.cs-round-name,.cs-tag{color:#000}"
            ".cs-match,.cs-match.active{border-color:#000;box-shadow:none}"
            ".cs-h-in,.cs-h-out,.cs-v-down,.cs-v-up{border-color:#000}.cs-slot+.cs-slot{border-top-color:#000}"
            ".cs-table th,.cs-table td{border-color:#000}.cs-stage{overflow:visible}.cs-round{min-width:170px}"
            ".cs-fixtures th,.cs-fixtures td{text-align:left}"
            "</style></body></html>")


def finished(draw: Json) -> bool:
    """Whether the draw is over (the API's draw read says `status: complete`): nothing is left to start, no
    entry may withdraw and the draw stays, so the page offers none of that."""
    return draw.get("status") == "complete"
