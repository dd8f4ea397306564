"""Accounts through the real API, on PostgreSQL and on SQLite: Register, Login and UpgradeGuest, a
username unique regardless of case and Unicode compatibility forms, hostile inputs answered with
their reasons, failed logins rate limited, and a guest that registers keeps its id and history."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from services.kit.errors import error_info, retry_info
from sizzle.auth.v1 import auth_service_pb2 as apb
from tests.match.players import BOT, HUMAN, Player, auth, play_out
from tests.records.databases import RecordsDatabase
from tests.records.platforms import auth_stub, history, login, records_platform, register
from tests.servers import ServerThread
from tests.waiting import eventually

PASSWORD = "correct horse battery"


@pytest.fixture()
def server(records_db: RecordsDatabase) -> Iterator[ServerThread]:
    server = records_platform(records_db, quota_failed_logins=3, quota_failed_logins_per_address=8)
    yield server
    server.stop()


@pytest.fixture()
def channel(server: ServerThread) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.target) as ch:
        yield ch


def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    try:
        call()  # type: ignore[operator]
    except grpc.RpcError as error:
        info = error_info(error)
        return error.code(), info.reason if info else ""
    raise AssertionError("the call was not refused")


def test_a_username_is_one_name_in_every_case_and_compatibility_form(channel: grpc.Channel) -> None:
    made = register(channel, "  Alice ", PASSWORD)
    assert made.player_id.startswith("p_") and made.username == "Alice" and made.token
    # The token is a player token: it creates matches.
    Player(channel, "Alice", made.token).create("a_la_carte_cards", [BOT, BOT])
    for lookalike in ("alice", "ALICE", "Ａｌｉｃｅ", "ａＬＩＣＥ"):  # fullwidth forms are NFKC-equal
        assert refusal(lambda n=lookalike: register(channel, n, PASSWORD)) == (
            grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
        again = login(channel, lookalike, PASSWORD)
        assert again.player_id == made.player_id and again.username == "Alice"
    assert register(channel, "Alicia", PASSWORD).player_id != made.player_id
    ligature = register(channel, "ﬁsh", PASSWORD)  # the ligature's NFKC form is "fish"
    assert refusal(lambda: register(channel, "FISH", PASSWORD)) == (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
    assert login(channel, "fish", PASSWORD).player_id == ligature.player_id


def test_hostile_inputs_are_refused_with_their_reasons(channel: grpc.Channel) -> None:
    invalid = (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST")
    assert refusal(lambda: register(channel, "", PASSWORD)) == invalid
    assert refusal(lambda: register(channel, "x" * 33, PASSWORD)) == invalid
    assert refusal(lambda: register(channel, "tab\there", PASSWORD)) == invalid
    assert refusal(lambda: register(channel, "bob", "short")) == invalid
    assert refusal(lambda: register(channel, "bob", "p" * 129)) == invalid
    register(channel, "bob", PASSWORD)
    wrong = (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS")
    assert refusal(lambda: login(channel, "bob", PASSWORD + "!")) == wrong
    assert refusal(lambda: login(channel, "nobody", PASSWORD)) == wrong  # the same answer: no user enumeration
    assert refusal(lambda: login(channel, "bob", "p" * 100_000)) == wrong
    assert refusal(lambda: login(channel, "\x00" * 5000, PASSWORD)) == wrong
    upgrade = apb.UpgradeGuestRequest(username="carol", password=PASSWORD)
    assert refusal(lambda: auth_stub(channel).UpgradeGuest(upgrade, timeout=5)) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN")


def test_failed_logins_are_limited_per_username_and_only_failures_count(channel: grpc.Channel) -> None:
    register(channel, "dave", PASSWORD)
    register(channel, "erin", PASSWORD)
    wrong = (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS")
    assert refusal(lambda: login(channel, "dave", "wrong password")) == wrong
    assert refusal(lambda: login(channel, "DAVE", "wrong password")) == wrong  # the same username
    for _ in range(3):  # successes give their slot back
        login(channel, "dave", PASSWORD)
    assert refusal(lambda: login(channel, "dave", "wrong password")) == wrong  # the third failure
    try:
        login(channel, "dave", PASSWORD)  # now even the right password waits out the window
        raise AssertionError("a fourth attempt after three failures was let through")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        info, retry = error_info(error), retry_info(error)
        assert info is not None and info.reason == "QUOTA_EXCEEDED" and info.metadata["quota"] == "failed_logins"
        assert retry is not None and 0 < retry.retry_delay.seconds <= 900
    assert login(channel, "erin", PASSWORD).username == "erin"  # another username is not locked


def test_failed_logins_are_limited_per_address(channel: grpc.Channel) -> None:
    for index in range(8):  # 8 a window from one address, whatever the usernames
        assert refusal(lambda i=index: login(channel, f"spray{i}", "password1")) == (
            grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS")
    assert refusal(lambda: login(channel, "spray9", "password1")) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")


def test_a_guest_that_registers_keeps_its_id_and_history(channel: grpc.Channel) -> None:
    made = auth_stub(channel).CreateGuest(apb.CreateGuestRequest(display_name="frank"), timeout=5)
    guest = Player(channel, "frank", made.token)
    mine = guest.create("a_la_carte_cards", [HUMAN, BOT], seed=12)
    guest.join(mine.match_id)
    finished = play_out([guest])
    entries = eventually(lambda: history(channel, guest.token).entries, timeout=20)
    assert [e.match.match_id for e in entries] == [mine.match_id] and entries[0].match.outcome == finished.outcome
    upgraded = auth_stub(channel).UpgradeGuest(apb.UpgradeGuestRequest(username="Frank", password=PASSWORD),
                                               metadata=auth(guest.token), timeout=10)
    assert (upgraded.player_id, upgraded.username) == (made.player_id, "Frank")
    assert refusal(lambda: auth_stub(channel).UpgradeGuest(
        apb.UpgradeGuestRequest(username="Frank2", password=PASSWORD), metadata=auth(guest.token), timeout=5)) == (
        grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_REGISTERED")
    assert refusal(lambda: auth_stub(channel).UpgradeGuest(
        apb.UpgradeGuestRequest(username="frank", password=PASSWORD), metadata=auth(guest.seat_token),
        timeout=5)) == (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")  # a good token, of the wrong kind
    back = login(channel, "FRANK", PASSWORD)
    assert back.player_id == made.player_id
    assert [e.match.match_id for e in history(channel, back.token).entries] == [mine.match_id]
    assert [e.match.match_id for e in history(channel, player_id=made.player_id).entries] == [mine.match_id]


def test_a_stranger_cannot_lock_the_owner_out_and_register_tells_no_usernames(records_db: RecordsDatabase) -> None:
    """A black-box audit: ten wrong passwords from anywhere locked the owner out of Login for the window
    (the limit counted per username alone); and once the address's account quota was spent, Register
    still answered USERNAME_TAKEN for every existing name, and QUOTA_EXCEEDED for free ones, without
    limit. Two addresses here: the server listens on both loopbacks, IPv4 and IPv6."""
    server = records_platform(records_db, addr="[::]:0", quota_failed_logins=3, quota_failed_logins_per_address=50,
                              quota_accounts_per_hour=3)
    port = server.target.rsplit(":", 1)[1]
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as owner, grpc.insecure_channel(f"[::1]:{port}") as stranger:
            register(owner, "gina", PASSWORD)
            for _ in range(6):  # the stranger's failures lock only the stranger
                assert refusal(lambda: login(stranger, "gina", "wrong password")) in (
                    (grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS"),
                    (grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED"))
            assert refusal(lambda: login(stranger, "gina", "wrong password")) == (
                grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
            assert login(owner, "gina", PASSWORD).username == "gina"
            # Register: a taken name costs the address's quota like a new one, so past it every name
            # answers alike.
            assert refusal(lambda: register(stranger, "GINA", PASSWORD)) == (
                grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
            register(stranger, "hank", PASSWORD)
            assert refusal(lambda: register(stranger, "gina", PASSWORD)) == (
                grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
            over = (grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
            assert refusal(lambda: register(stranger, "gina", PASSWORD)) == over  # taken
            assert refusal(lambda: register(stranger, "ivy", PASSWORD)) == over  # free
    finally:
        server.stop()


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164\u3164", "\u2800", "alice\u3164", "\u115f",
                                  "\u0301abc", "e" + "\u0301" * 4])
def test_names_that_show_as_nothing_or_a_smear_are_refused(channel: grpc.Channel, name: str) -> None:
    invalid = (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST")
    assert refusal(lambda: register(channel, name, PASSWORD)) == invalid
    assert refusal(lambda: auth_stub(channel).CreateGuest(apb.CreateGuestRequest(display_name=name), timeout=5)) == \
        invalid


def test_names_with_marks_and_other_scripts_are_welcome(channel: grpc.Channel) -> None:
    for name in ("José", "e\u0301\u0302", "Zoë Ångström", "李小龙", "Σοφία", "🍳 chef"):
        assert auth_stub(channel).CreateGuest(apb.CreateGuestRequest(display_name=name), timeout=5).token


def test_a_guest_cannot_take_an_accounts_name_and_guests_are_counted(records_db: RecordsDatabase) -> None:
    """A black-box audit: a guest named "Chefa417" (or its full-width form) played under a registered
    account's exact name. Guests are now charged to their address's hourly quota, so the check tells
    no more usernames than Register does."""
    server = records_platform(records_db, quota_guests_per_hour=4)
    try:
        with grpc.insecure_channel(server.target) as channel:
            register(channel, "Chefa417", PASSWORD)
            guests = auth_stub(channel)
            for name in ("Chefa417", "ｃｈｅｆａ４１７"):
                assert refusal(lambda n=name: guests.CreateGuest(apb.CreateGuestRequest(display_name=n), timeout=5)) \
                    == (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
            assert guests.CreateGuest(apb.CreateGuestRequest(display_name="Chefa418"), timeout=5).token
            assert guests.CreateGuest(apb.CreateGuestRequest(display_name="Chef A"), timeout=5).token
            assert refusal(lambda: guests.CreateGuest(apb.CreateGuestRequest(display_name="Chef B"), timeout=5)) == (
                grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    finally:
        server.stop()


def test_guests_find_no_more_usernames_than_register_does(records_db: RecordsDatabase) -> None:
    """A black-box audit: once Register answered QUOTA_EXCEEDED, CreateGuest went on telling which
    usernames exist (USERNAME_TAKEN or a token), 40 probes of 40, at the guests' hourly rate. A taken
    name now costs one of the address's accounts, and with those spent no guest is made at all."""
    server = records_platform(records_db, quota_accounts_per_hour=3, quota_guests_per_hour=100)
    try:
        with grpc.insecure_channel(server.target) as channel:
            guests = auth_stub(channel)

            def guest(name: str) -> object:
                return lambda: guests.CreateGuest(apb.CreateGuestRequest(display_name=name), timeout=5)

            register(channel, "Chefa417", PASSWORD)  # one account of three
            for free in ("Free1", "Free2", "Free3", "Free4"):  # a free name costs no account
                assert guest(free)().token  # type: ignore[operator]
            taken = (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
            assert refusal(guest("Chefa417")) == taken and refusal(guest("CHEFA417")) == taken
            spent = (grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
            assert refusal(lambda: register(channel, "Another", PASSWORD)) == spent
            # The probe tells nothing now: a taken name and a free one are refused alike.
            assert refusal(guest("Chefa417")) == spent and refusal(guest("Free5")) == spent
    finally:
        server.stop()


def test_a_guest_whose_name_became_an_accounts_sits_down_under_it_no_more(channel: grpc.Channel) -> None:
    """A guest named "Chefb500" before anyone registered that name kept it on its token for a week,
    and sat down at tables under it after the account "Chefb500" (or a look-alike) was made. Where a
    name goes onto a table (JoinMatch, CreateTicket) it is checked against the accounts again."""
    from sizzle.match.v1 import match_service_pb2 as mpb
    from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
    from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

    early = Player.guest(channel, "Chefb500")
    upgraded = Player.guest(channel, "Dora")
    table = early.create("grill_party", [HUMAN, HUMAN, BOT]).match_id
    owner = register(channel, "\u0421hefb500", PASSWORD)  # a look-alike account, registered after
    auth_stub(channel).UpgradeGuest(apb.UpgradeGuestRequest(username="Dora", password=PASSWORD),
                                    metadata=auth(upgraded.token), timeout=5)
    taken = (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
    assert refusal(lambda: early.join(table)) == taken
    tickets = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)
    assert refusal(lambda: tickets.CreateTicket(mmpb.CreateTicketRequest(game_id="hibachi"),
                                                metadata=auth(early.token), timeout=5)) == taken
    # The account's own player sits down, and so does a guest that became the account of its name.
    assert Player(channel, "owner", owner.token).join(table).seat >= 0
    assert upgraded.join(table).match.status == mpb.MATCH_STATUS_RUNNING


def test_a_username_may_not_look_like_another_in_any_script(channel: grpc.Channel) -> None:
    """Names that look alike across scripts are one name (Unicode TR39 skeletons, by ICU): a Cyrillic
    "С" (U+0421) or an "l" for a "1" registered as another account, or a guest, beside "Chefa417"."""
    taken = (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")
    made = register(channel, "Chefa417", PASSWORD)
    # ... nor those NFKC makes unlike the name (a regression audit: the long s, lunate sigmas and a
    # halfwidth bar, which NFKC turns into s, sigmas and a box line, passed a skeleton taken after it).
    for lookalike in ("\u0421hefa417", "\u0421h\u0435f\u0430417", "Chefa4l7", "CHEFA417", "\u0421HEFA4I7",
                      "\u03f9hefa417", "Che\u017fa417", "Chefa4\uffe87", "\u03f9he\u017fa417"):
        assert refusal(lambda n=lookalike: register(channel, n, PASSWORD)) == taken, lookalike
        assert refusal(lambda n=lookalike: auth_stub(channel).CreateGuest(
            apb.CreateGuestRequest(display_name=n), timeout=5)) == taken, lookalike
    # A login names its account by the name's key: a look-alike is a wrong username, not a way in.
    assert refusal(lambda: login(channel, "\u0421hefa417", PASSWORD)) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_CREDENTIALS")
    assert login(channel, "chefa417", PASSWORD).player_id == made.player_id
    # Names that merely share letters stay free, in every script.
    for name in ("Chefa418", "Chef a417", "Chesa417", "\u0421\u0435\u0440\u0433\u0435\u0439",
                 "\u041f\u0435\u0442\u044f"):
        assert register(channel, name, PASSWORD).username == name


def test_a_name_too_long_once_spelled_out_is_refused_not_a_server_error(channel: grpc.Channel) -> None:
    """U+FDFA is one printable character and 18 letters in NFKC: 32 of them made a key longer than
    the records' column, which PostgreSQL refused with an error the caller got as INTERNAL."""
    assert refusal(lambda: register(channel, "\ufdfa" * 32, PASSWORD)) == (
        grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST")
    assert register(channel, "\ufdfa", PASSWORD).username == "\ufdfa"
