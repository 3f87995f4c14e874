import Foundation
import TestSupport
import Testing

/// End-to-end tests of the `task` commands through the built binary.
@Suite("repeat-sim task")
struct TaskCommandTests {
    let db = temporaryDirectory("repeat-cli") + "/tasks.sqlite"
    let sample = RepositoryPaths.track("cat-medicine/tasks.json")

    func sim(_ arguments: String..., input: String? = nil, zone: String = "UTC") throws -> CommandResult {
        try RepeatSimBinary.run(arguments + ["--db", db], input: input, environment: ["TZ": zone])
    }

    @Test("import then show --json gives exactly the contract's fields")
    func importAndShow() throws {
        let imported = try sim("task", "import", sample)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 6 tasks.\n")
        // Cycle 1 (after the 2025-03-20 completion): window 2025-05-29 17:45 CEST, due 2025-06-26 17:45 CEST.
        let show = try sim("task", "show", "cat-medicine", "--json", "--at", "2025-05-29T16:00:00Z")
        #expect(show.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "title", "state", "window_start", "due", "progress", "last_completed", "list"])
        #expect(object["state"] as? String == "window")
        #expect(object["window_start"] as? String == "2025-05-29T15:45:00Z")
        #expect(object["due"] as? String == "2025-06-26T15:45:00Z")
        #expect(object["last_completed"] as? String == "2025-03-20T16:45:00Z")
        let progress = try #require(object["progress"] as? Double)
        #expect(abs(progress - 0.7147) < 0.001)  // 70.0 of 98 days
    }

    @Test("a task added without --start starts at the current minute: no fractions of a second in its times")
    func addedTaskStartsOnAMinute() throws {
        let added = try sim("task", "add", "--title", "Water plants", "--every", "1w")
        #expect(added.status == 0, "\(added.stderr)")
        let show = try sim("task", "show", "water-plants", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let due = try #require(object["due"] as? String)
        #expect(due.count == 20 && due.hasSuffix(":00Z"), "\(due)")
    }

    @Test("'I last bought cat medicine on 1 Nov': a completion before the start anchors the flexible cycle")
    func lastDoneBeforeTheStartAnchorsTheCycle() throws {
        // With --last-done on add…
        let added = try sim(
            "task", "add", "--title", "Buy cat medicine", "--after", "10w-14w", "--time-zone", "Europe/Berlin",
            "--start", "2025-12-01T09:00:00+01:00", "--last-done", "2025-11-01T18:00:00+01:00")
        #expect(added.status == 0, "\(added.stderr)")
        let show = try sim("task", "show", "buy-cat-medicine", "--json", "--at", "2025-12-01T12:00:00Z")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        // Ten weeks after 1 Nov 18:00 CET is 10 Jan 18:00 CET; fourteen, 7 Feb.
        #expect(object["window_start"] as? String == "2026-01-10T17:00:00Z", "\(show.stdout)")
        #expect(object["due"] as? String == "2026-02-07T17:00:00Z", "\(show.stdout)")
        // …and with `task done --at` on a task that starts later.
        let other = try sim(
            "task", "add", "--title", "Cat medicine again", "--after", "10w-14w", "--time-zone", "Europe/Berlin",
            "--start", "2025-12-01T09:00:00+01:00")
        #expect(other.status == 0, "\(other.stderr)")
        let done = try sim("task", "done", "cat-medicine-again", "--at", "2025-11-01T18:00:00+01:00")
        #expect(done.status == 0, "\(done.stderr)")
        let again = try sim("task", "show", "cat-medicine-again", "--json", "--at", "2025-12-01T12:00:00Z")
        let anchored = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(anchored["window_start"] as? String == "2026-01-10T17:00:00Z", "\(again.stdout)")
    }

    @Test("a time without an offset is local to the task; a date means its start")
    func localTimesAreInTheTasksZone() throws {
        _ = try sim("task", "import", sample)
        let local = try sim("task", "show", "cat-medicine", "--json", "--at", "2025-05-29T18:00")
        let utc = try sim("task", "show", "cat-medicine", "--json", "--at", "2025-05-29T16:00:00Z")
        #expect(local.status == 0 && !local.stdout.isEmpty, "\(local.stderr)")
        #expect(local.stdout == utc.stdout)
        #expect(local.stdout.contains("\"state\":\"window\""), "\(local.stdout)")
        // 2025-05-29 alone is Berlin's midnight: the window (17:45) opens later that day.
        let date = try sim("task", "show", "cat-medicine", "--json", "--at", "2025-05-29")
        #expect(date.stdout.contains("\"state\":\"due-soon\""), "\(date.stdout)")
        let typo = try sim("task", "show", "cat-medicine", "--at", "soon")
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("'soon' is not a time"), "\(typo.stderr)")
    }

    @Test("read-only commands create nothing; a file that is not a store is refused, naming it")
    func theStoreDoesNotSurprise() throws {
        let folder = temporaryDirectory("repeat-store")
        let missing = folder + "/nowhere/tasks.sqlite"
        for command in [["task", "list"], ["task", "show", "x"], ["task", "history", "x"]] {
            let result = try RepeatSimBinary.run(command + ["--db", missing])
            #expect(result.status == 1)
            #expect(result.stderr.contains("no task store at \(missing) yet"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
        // A --db folder that does not exist is not made by writing commands either.
        let add = try RepeatSimBinary.run(["task", "add", "--title", "X", "--every", "1w", "--db", missing])
        #expect(add.status == 1)
        #expect(add.stderr.contains("the folder \(folder)/nowhere does not exist"), "\(add.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))

        let text = folder + "/notes.sqlite"
        try "shopping list\n".write(toFile: text, atomically: true, encoding: .utf8)
        for command in [["task", "list"], ["task", "add", "--title", "X", "--every", "1w"]] {
            let result = try RepeatSimBinary.run(command + ["--db", text])
            #expect(result.status == 1)
            #expect(result.stderr.contains("\(text) is not a Repeat task store (not an SQLite database)"), "\(result.stderr)")
            #expect(!result.stderr.contains("SQLITE"), "no raw SQL words")
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "shopping list\n")

        // A folder is named as one (SQLite says only "unable to open"), and an empty path as no file.
        for command in [["task", "list"], ["task", "add", "--title", "X", "--every", "1w"]] {
            let inFolder = try RepeatSimBinary.run(command + ["--db", folder])
            #expect(inFolder.status == 1)
            #expect(
                inFolder.stderr.contains(
                    "\(folder) is not a Repeat task store (a folder: name the store's file, e.g. \(folder)/repeat.sqlite)"),
                "\(inFolder.stderr)")
            let empty = try RepeatSimBinary.run(command + ["--db", ""])
            #expect(empty.status == 1)
            #expect(empty.stderr.contains("the task database cannot be used: an empty path names no file"), "\(empty.stderr)")
        }
    }

    @Test("states through the contract: due-soon, overdue, finished")
    func states() throws {
        _ = try sim("task", "import", sample)
        func state(_ id: String, _ time: String) throws -> String? {
            let result = try sim("task", "show", id, "--json", "--at", time)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return object?["state"] as? String
        }
        #expect(try state("cat-medicine", "2025-05-28T16:00:00Z") == "due-soon")
        #expect(try state("cat-medicine", "2025-05-28T15:44:00Z") == "waiting")
        #expect(try state("cat-medicine", "2025-06-26T15:45:01Z") == "overdue")
        #expect(try state("tax-return", "2025-08-01T00:00:00Z") == "overdue")
        let done = try sim("task", "done", "tax-return", "--at", "2025-07-30T10:00:00Z")
        #expect(!done.stderr.contains("warning"), "\(done.stderr)")
        #expect(try state("tax-return", "2025-08-01T00:00:00Z") == "finished")
        // Done again: recorded, with a word that the one-off was done already.
        let again = try sim("task", "done", "tax-return", "--at", "2025-08-02T10:00:00Z")
        #expect(again.status == 0)
        #expect(
            again.stderr.contains(
                "warning: the one-off task was done already, at 2025-07-30 12:00 +02:00; the completion is recorded as given (`repeat-sim task undo tax-return` takes it back)"
            ),
            "\(again.stderr)")
        // A one-off's due time is shown in the task's zone, as its other times are.
        let history = try sim("task", "history", "tax-return")
        #expect(history.stdout.hasPrefix("Tax return (tax-return): once, due 2025-07-31 23:59 +02:00, 2 completions\n"))
    }

    @Test("a file with one bad task imports nothing and names the task and field")
    func badImport() throws {
        let file = temporaryDirectory() + "/bad.json"
        try
            #"{"tasks":[{"id":"ok","title":"OK","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"1d"}}},{"id":"bad","title":"Bad","start":"2025-01-01T00:00:00Z","schedule":{"fixed":{"every":"banana"}}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try sim("task", "import", file)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"task "bad" (tasks[1]), field "schedule.fixed.every": "banana" is not a duration"#))
        let list = try sim("task", "list", "--json")
        #expect(list.stdout.isEmpty)
    }

    @Test("a place south of the equator and west of Greenwich is taken as --at-place's value, not as a flag")
    func southernPlace() throws {
        let add = try sim("task", "add", "--title", "Ferry", "--every", "1w", "--at-place", "-33.8568,-151.2153")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try sim("task", "show", "ferry").stdout.contains("place      Place 1: -33.8568,-151.2153 r=100 m"))
    }

    @Test("an offset west of Greenwich is taken as --time-zone's value, not as a flag")
    func westernOffset() throws {
        let add = try sim(
            "task", "add", "--title", "Standup", "--every", "1w", "--time-zone", "-05:30", "--start", "2025-01-06T09:00")
        #expect(add.status == 0, "\(add.stderr)")
        let show = try sim("task", "show", "standup").stdout
        #expect(show.contains("zone UTC-05:30") && show.contains("start      2025-01-06 09:00 -05:30"), "\(show)")
    }

    @Test("an id typed wrong is answered with the stored id it may have meant")
    func nearestID() throws {
        #expect(try sim("task", "add", "--title", "Buy cat medicine", "--every", "1w").status == 0)
        let typo = try sim("task", "done", "buy-cat-medcine")
        #expect(typo.status == 1)
        #expect(typo.stderr.hasPrefix(#"Error: no task "buy-cat-medcine"; did you mean "buy-cat-medicine"?"#), "\(typo.stderr)")
        let shouted = try sim("task", "show", "BUY-CAT-MEDICINE")
        #expect(shouted.stderr.hasPrefix(#"Error: no task "BUY-CAT-MEDICINE"; did you mean "buy-cat-medicine"?"#))
        let far = try sim("task", "rm", "water-plants")
        #expect(far.stderr.hasPrefix(#"Error: no task "water-plants" (see `repeat-sim task list`)"#), "\(far.stderr)")
    }

    @Test("add with every field, edit, done, history, rm")
    func lifecycle() throws {
        let add = try sim(
            "task", "add", "--title", "Buy cat medicine", "--list", "Pets", "--notes", "green box",
            "--assignee", "phone", "--time-zone", "Europe/Berlin", "--start", "2025-01-06T09:00:00+01:00",
            "--after", "10w-14w", "--lead", "2d", "--at-place", "52.5163,13.3777", "--radius", "150",
            "--place-name", "Pharmacy")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.hasPrefix("Added buy-cat-medicine: Buy cat medicine (10w–14w after completion)"))
        // Lead 2d: due-soon from 2025-03-15 09:00 CET.
        let show = try sim("task", "show", "buy-cat-medicine", "--json", "--at", "2025-03-15T08:30:00Z")
        #expect(show.stdout.contains(#""state":"due-soon""#))
        let edit = try sim("task", "edit", "buy-cat-medicine", "--every", "12w", "--list", "")
        #expect(edit.status == 0, "\(edit.stderr)")
        // --end takes the forms --start takes, local ones in the task's zone; "" clears it.
        #expect(try sim("task", "edit", "buy-cat-medicine", "--end", "2026-01-01").status == 0)
        let ended = try sim("task", "show", "buy-cat-medicine", "--json", "--at", "2025-12-31T23:30:00Z")
        #expect(ended.stdout.contains(#""state":"finished""#), "\(ended.stdout)")
        #expect(try sim("task", "edit", "buy-cat-medicine", "--end", "").status == 0)
        let done = try sim("task", "done", "buy-cat-medicine", "--at", "2025-04-01T10:00:00Z")
        #expect(done.status == 0)
        #expect(done.stdout.contains("Done: Buy cat medicine at 2025-04-01 12:00 +02:00 (1d 3h late)"))
        #expect(!done.stderr.contains("warning"), "\(done.stderr)")
        let history = try sim("task", "history", "buy-cat-medicine", "--json")
        #expect(
            history.lines == [
                #"{"completed":"2025-04-01T10:00:00Z","cycle":1,"window_start":"2025-03-31T07:00:00Z","due":"2025-03-31T07:00:00Z","late_s":97200.0}"#
            ])
        let after = try sim("task", "show", "buy-cat-medicine", "--json", "--at", "2025-04-02T00:00:00Z")
        #expect(after.stdout.contains(#""due":"2025-06-23T07:00:00Z""#))
        #expect(!after.stdout.contains(#""list""#))
        // A completion before the task's start is most likely a typo: recorded, with a warning.
        let early = try sim("task", "done", "buy-cat-medicine", "--at", "2015-04-01T10:00:00Z")
        #expect(early.status == 0)
        #expect(
            early.stderr.contains(
                "warning: 2015-04-01 12:00 +02:00 is before the task's start (2025-01-06 09:00 +01:00); "
                    + "the completion is recorded as given"), "\(early.stderr)")
        // What comes next counts from the later completion, not from the one entered after the fact.
        #expect(
            early.stdout.contains("Next, after its completion at 2025-04-01 12:00 +02:00: due 2025-06-23 09:00 +02:00."),
            "\(early.stdout)")
        #expect(try sim("task", "rm", "buy-cat-medicine").status == 0)
        let gone = try sim("task", "show", "buy-cat-medicine")
        #expect(gone.status == 1)
        #expect(gone.stderr.contains(#"no task "buy-cat-medicine""#))
    }

    @Test("slips are kept as given, with a word: done after the end or in the future, due before the start, last done ahead")
    func slipsAreKeptWithAWord() throws {
        let add = try sim(
            "task", "add", "--title", "Water", "--every", "1w", "--start", "2025-03-01T09:00Z", "--end", "2025-04-01")
        #expect(add.status == 0, "\(add.stderr)")
        let late = try sim("task", "done", "water", "--at", "2025-05-01T09:00Z")
        #expect(late.status == 0)
        #expect(
            late.stderr.contains(
                "warning: 2025-05-01 09:00 UTC is after the task's end (2025-04-01 00:00 UTC); the completion is recorded as given"
            ),
            "\(late.stderr)")
        #expect(late.stdout.hasSuffix("The task is finished.\n"))
        // In the future: counted only from then on.
        let future = try sim("task", "done", "water", "--at", "2999-01-01T00:00:00Z")
        #expect(
            future.stderr.contains(
                "warning: 2999-01-01 00:00 UTC is in the future: until then the task does not count it; "
                    + "the completion is recorded as given (`repeat-sim task undo water` takes it back)"), "\(future.stderr)")
        // Added with slips: a one-off due before the start it was given, a last completion still to come.
        let slips = try sim(
            "task", "add", "--title", "Tax", "--due", "2025-01-01", "--start", "2025-06-01")
        #expect(
            slips.stderr.contains(
                "warning: it is due (2025-01-01 00:00 UTC) before it starts (2025-06-01 00:00 UTC): it is overdue from its start"),
            "\(slips.stderr)")
        let edited = try sim("task", "edit", "tax", "--due", "2025-03-01")
        #expect(
            edited.stderr.contains("warning: it is due (2025-03-01 00:00 UTC) before it starts (2025-06-01 00:00 UTC)"),
            "\(edited.stderr)")
        #expect(try sim("task", "edit", "tax", "--due", "2025-07-01").stderr.isEmpty)
        let ahead = try sim("task", "add", "--title", "Gym", "--after", "1w", "--last-done", "2999-01-01T00:00:00Z")
        #expect(
            ahead.stderr.contains(
                "warning: --last-done 2999-01-01 00:00 UTC is in the future: until then the task counts as never done"),
            "\(ahead.stderr)")
        // Without --start a deadline already past is only overdue: no word.
        #expect(try sim("task", "add", "--title", "Bins", "--due", "2025-01-01").stderr.isEmpty)
    }

    @Test("undo takes back the completion recorded last, or the one --at names, and says what the task waits for now")
    func undo() throws {
        let add = try sim(
            "task", "add", "--title", "Water", "--after", "1w", "--time-zone", "Europe/Berlin", "--start", "2025-03-01T09:00Z")
        #expect(add.status == 0, "\(add.stderr)")
        let never = try sim("task", "undo", "water")
        #expect(never.status == 1)
        #expect(never.stderr.contains("water has no completion to take back"), "\(never.stderr)")
        for time in ["2025-03-10T09:00:00Z", "2025-03-05T09:00:00Z", "2025-03-05T09:00:30Z", "2025-03-20T09:00:00Z"] {
            #expect(try sim("task", "done", "water", "--at", time).status == 0)
        }
        // Recorded last, though not the latest: a mistyped --at is taken back by a plain undo.
        #expect(try sim("task", "done", "water", "--at", "2015-03-12T09:00:00Z").status == 0)
        let last = try sim("task", "undo", "water")
        #expect(last.status == 0, "\(last.stderr)")
        #expect(
            last.stdout
                == "Took back: Water done at 2015-03-12 10:00 +01:00.\n"
                + "Next, after its completion at 2025-03-20 10:00 +01:00: due 2025-03-27 10:00 +01:00.\n")

        // Two completions in one minute: the minute alone is refused, naming both to the second.
        let twice = try sim("task", "undo", "water", "--at", "2025-03-05 10:00")
        #expect(twice.status == 1)
        #expect(
            twice.stderr.contains(
                "water has 2 completions at 2025-03-05 10:00 +01:00: 2025-03-05 10:00:00 +01:00, "
                    + "2025-03-05 10:00:30 +01:00; give --at to the second"), "\(twice.stderr)")
        let missing = try sim("task", "undo", "water", "--at", "2025-03-06 10:00")
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "water has no completion at 2025-03-06 10:00 +01:00; the nearest: 2025-03-05 10:00:00 +01:00, "
                    + "2025-03-05 10:00:30 +01:00, 2025-03-10 10:00:00 +01:00"), "\(missing.stderr)")
        let second = try sim("task", "undo", "water", "--at", "2025-03-05 10:00:30")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("Took back: Water done at 2025-03-05 10:00 +01:00.\n"))

        // The completions after the one taken back close other cycles now: as if it had never been given.
        let first = try sim("task", "undo", "water", "--at", "2025-03-05 10:00")
        #expect(first.status == 0, "\(first.stderr)")
        let history = try sim("task", "history", "water", "--json")
        #expect(
            history.lines == [
                #"{"completed":"2025-03-10T09:00:00Z","cycle":1,"window_start":"2025-03-08T09:00:00Z","due":"2025-03-08T09:00:00Z","late_s":172800.0}"#,
                #"{"completed":"2025-03-20T09:00:00Z","cycle":2,"window_start":"2025-03-17T09:00:00Z","due":"2025-03-17T09:00:00Z","late_s":259200.0}"#,
            ])
        let json = try sim("task", "undo", "water", "--json")
        #expect(
            json.stdout.contains(#""due":"2025-03-17T09:00:00Z""#)
                && json.stdout.contains(#""last_completed":"2025-03-10T09:00:00Z""#), "\(json.stdout)")
    }

    @Test(
        "usage errors exit 1 and say what to do",
        arguments: [
            (["task", "add", "--title", "X"], "give a schedule"),
            (["task", "add", "--title", "X", "--every", "banana"], #""banana" is not a duration"#),
            (["task", "add", "--title", "X", "--weekdays", "mon"], "--weekdays needs --at-time"),
            (["task", "add", "--title", "X", "--weekdays", ",", "--at-time", "10:00"], "--weekdays needs at least one day"),
            (
                ["task", "add", "--title", "X", "--after", "14w-10w"],
                "--after 14w-10w: 14w is longer than 10w; write MIN-MAX, e.g. 10w-14w"
            ),
            (["task", "add", "--title", "X", "--after", "0d"], "--after needs an interval greater than zero (got 0d)"),
            (["task", "add", "--title", "X", "--every", "0mo"], "--every needs an interval greater than zero (got 0mo)"),
            (
                ["task", "add", "--title", "X", "--every", "1d", "--time-zone", "Mars/Base"],
                #""Mars/Base" is not an IANA time zone"#
            ),
            (["task", "list", "--at", "soon"], "'soon' is not a time"),
            (["task", "show"], "Missing expected argument"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try RepeatSimBinary.run(arguments + ["--db", db])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("the overview sorts by due, counts overdue, and has no colour off a terminal")
    func overview() throws {
        _ = try sim("task", "import", sample)
        let list = try sim("task", "list", "--at", "2025-04-14T10:00:00Z")
        #expect(list.status == 0)
        #expect(list.lines.first == "Tasks at 2025-04-14 10:00 UTC — 2 overdue")
        let order = list.lines.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true)[0] }
        #expect(order == ["overdue", "overdue", "waiting", "waiting", "waiting", "waiting"])
        #expect(list.lines[2].contains("Gym"))
        #expect(!list.stdout.contains("\u{1B}["))
        let pets = try sim("task", "list", "--json", "--list", "Pets", "--at", "2025-04-14T10:00:00Z")
        #expect(pets.lines.count == 2)
        #expect(pets.lines.allSatisfy { $0.contains(#""list":"Pets""#) })
        // A list's name is matched as a person types it; one that names no list names those there are.
        let typed = try sim("task", "list", "--json", "--list", "PETS", "--at", "2025-04-14T10:00:00Z")
        #expect(typed.lines == pets.lines)
        let none = try sim("task", "list", "--list", "Pest")
        #expect(none.status == 1)
        #expect(
            none.stderr.contains(#"no task is in a list "Pest"; the lists are "Admin", "Health", "Home", "Pets""#),
            "\(none.stderr)")
    }

    @Test("the overview's header is in the viewer's zone; due times in the task's, with the year when not this one")
    func overviewTimesAreLocal() throws {
        let added = [
            try sim("task", "add", "--title", "Bins", "--due", "2025-04-14T23:59:00+02:00"),
            try sim("task", "add", "--title", "Tax return", "--due", "2026-01-05T10:00", "--time-zone", "Europe/Berlin"),
            try sim("task", "add", "--title", "Old", "--every", "1d", "--start", "2024-03-01T08:00"),
        ]
        #expect(added.allSatisfy { $0.status == 0 }, "\(added.map(\.stderr))")
        let list = try sim("task", "list", "--at", "2025-04-14T10:00:00Z", zone: "America/New_York")
        #expect(list.lines.first == "Tasks at 2025-04-14 06:00 -04:00 — 1 overdue", "\(list.stdout)")
        // Given with +02:00 and no zone, Bins is due at 23:59 in its own zone, not 21:59 UTC.
        #expect(list.lines.contains { $0.contains("Mon 14 Apr 23:59") && $0.contains("Bins") }, "\(list.stdout)")
        #expect(list.lines.contains { $0.contains("Mon  5 Jan 2026 10:00") && $0.contains("Tax return") }, "\(list.stdout)")
        #expect(list.lines.contains { $0.contains("Sat  2 Mar 2024 08:00") && $0.contains("Old") }, "\(list.stdout)")
        let show = try sim("task", "show", "bins")
        #expect(show.stdout.contains("due        2025-04-14 23:59 +02:00"), "\(show.stdout)")
        // A time of day with an offset is today's at that offset.
        let tonight = try sim("task", "add", "--title", "Tonight", "--due", "23:59+02:00")
        #expect(tonight.status == 0, "\(tonight.stderr)")
        #expect(try sim("task", "show", "tonight").stdout.contains("23:59 +02:00"))
    }

    @Test("the default store is made with its folders, the owner's alone; a folder that cannot be made is named")
    func defaultPlace() throws {
        let home = temporaryDirectory("repeat-default-store")
        let data = ["XDG_DATA_HOME": home + "/data"]
        let added = try RepeatSimBinary.run(["task", "add", "--title", "Gym", "--every", "1w"], environment: data)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/data/repeat/repeat.sqlite"))
        for folder in [home + "/data", home + "/data/repeat"] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o700, "\(folder)")
        }
        #expect(FileManager.default.createFile(atPath: home + "/file", contents: Data()))
        let blocked = try RepeatSimBinary.run(
            ["task", "add", "--title", "Gym", "--every", "1w"], environment: ["XDG_DATA_HOME": home + "/file/data"])
        #expect(blocked.status == 1)
        #expect(
            blocked.stderr.contains("the folder \(home)/file/data cannot be made: Not a directory"), "\(blocked.stderr)")
    }

    @Test("a new store is the owner's alone: mode 0600 whatever the umask")
    func storeIsPrivate() throws {
        let added = try sim("task", "add", "--title", "Private", "--every", "1w")
        #expect(added.status == 0, "\(added.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: db)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a title with terminal escapes is shown escaped: it cannot clear the screen or set the window title")
    func controlCharactersAreEscaped() throws {
        let title = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let added = try sim("task", "add", "--title", title, "--every", "1w", "--id", "evil")
        #expect(added.stdout == "Added evil: Evil\\u{1b}]0;pwned\\u{7}\\u{1b}[2J (every 1w).\n", "\(added.stdout)")
        for arguments in [["task", "list"], ["task", "show", "evil"], ["task", "history", "evil"]] {
            let result = try RepeatSimBinary.run(arguments + ["--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "\(arguments)")
            #expect(result.stdout.contains("Evil\\u{1b}"), "\(result.stdout)")
        }
        let json = try sim("task", "show", "evil", "--json")
        #expect(json.stdout.contains(#""title":"Evil\u001b]0;pwned\u0007\u001b[2J""#), "\(json.stdout)")
    }

    @Test("concurrent task done from two processes both land")
    func concurrentDone() throws {
        _ = try sim("task", "import", sample)
        let group = DispatchGroup()
        nonisolated(unsafe) var statuses: [Int32] = []
        let lock = NSLock()
        for hour in 0..<8 {
            group.enter()
            DispatchQueue.global().async {
                let time = String(format: "2025-05-01T%02d:00:00Z", hour)
                let status = (try? RepeatSimBinary.run(["task", "done", "water-plants", "--at", time, "--db", db]).status) ?? -1
                lock.lock(); statuses.append(status); lock.unlock()
                group.leave()
            }
        }
        group.wait()
        #expect(statuses == Array(repeating: 0, count: 8))
        let history = try sim("task", "history", "water-plants", "--json")
        #expect(history.lines.count == 9)
    }

    @Test("processes opening one new store at once all land: one creates and migrates it, the others wait")
    func concurrentCreation() throws {
        let folder = temporaryDirectory("repeat-race")
        let group = DispatchGroup()
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        for round in 0..<6 {
            let store = folder + "/store\(round).sqlite"
            for title in ["A", "B", "C"] {
                group.enter()
                DispatchQueue.global().async {
                    let result = try? RepeatSimBinary.run(["task", "add", "--title", title, "--every", "1w", "--db", store])
                    if result?.status != 0 {
                        lock.lock()
                        failures.append(result?.stderr ?? "did not run")
                        lock.unlock()
                    }
                    group.leave()
                }
            }
        }
        group.wait()
        #expect(failures.isEmpty, "\(failures)")
        for round in 0..<6 {
            let list = try RepeatSimBinary.run(["task", "list", "--json", "--db", folder + "/store\(round).sqlite"])
            #expect(list.lines.count == 3, "\(list.stdout)")
        }
    }
}
