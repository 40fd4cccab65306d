import Foundation
import TestExpectations
import Testing

/// The built `openuikit` executable, run as a user runs it.
@Suite struct ExecutableTests {
    /// The executable beside this test bundle in the build directory
    /// (`swift build --build-tests` and `swift test` build both).
    static func executable() throws -> URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let tool = bundle.deletingLastPathComponent().appendingPathComponent("openuikit")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw MissingExecutable(path: tool.path)
        }
        return tool
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        let path: String
        var description: String { "the openuikit executable is not built at \(path); run `swift build --build-tests` first" }
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                   errors: String(decoding: err, as: UTF8.self))
    }

    @Test func tracePrintsTheSeedArticlesHitTestOrder() throws {
        let run = try Self.run(["trace"])
        expectEqual(run.status, 0)
        #expect(run.output == """
            tap at window point (56.67, 167.00)
            yellow.hitTest at (23.67, -136.00)
              yellow.point(inside: (23.67, -136.00)) → false
            yellow.hitTest → nil
            light grey.hitTest at (23.67, 20.00)
              light grey.point(inside: (23.67, 20.00)) → true
              green.hitTest at (-114.33, -37.00)
                green.point(inside: (-114.33, -37.00)) → false
              green.hitTest → nil
              red.hitTest at (23.67, 20.00)
                red.point(inside: (23.67, 20.00)) → true
              red.hitTest → red
            light grey.hitTest → red
            red.touchesBegan
            light grey.touchesBegan
            root.touchesBegan
            red.touchesEnded
            light grey.touchesEnded
            root.touchesEnded

            """)
    }

    /// `trace --json`: one JSON object a line, the article's walk among them
    /// with each `point(inside:)` answer, then red's touch methods.
    @Test func traceJSONWritesOneRecordALineWithTheWalkInTheArticlesOrder() throws {
        let run = try Self.run(["trace", "--json"])
        expectEqual(run.status, 0, "\(run.errors)")
        let records = try run.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
        func name(_ record: [String: Any], _ key: String = "view") -> String {
            let view = record[key] as? [String: Any]
            return view?["name"] as? String ?? view?["class"] as? String ?? "?"
        }
        let walk = records.filter { $0["step"] as? String == "pointInside" }.map { "\(name($0)) \($0["result"] as? Bool ?? false)" }
        expectEqual(walk, ["UIWindow true", "root true", "yellow false", "light grey true", "green false", "red true"])
        let delivered = records.filter { $0["step"] as? String == "touchesDelivered" }.map { "\(name($0)) \($0["phase"] ?? "?")" }
        expectEqual(delivered, ["red began", "red ended"])
        #expect(records.first?["step"] as? String == "hidEventReceived")
    }

    @Test func traceTapRecognizesTheTapAndCancelsTheBadgesTouch() throws {
        let run = try Self.run(["trace", "tap"])
        expectEqual(run.status, 0)
        let lines = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        expectEqual(lines.first, "demo: window ← root ← card (tap, long press, pan) ← badge; tap")
        #expect(lines.contains("0.080    tap: possible → ended"))
        #expect(lines.contains("0.080    badge.touchesCancelled(1 touch)"))
        #expect(lines.contains("0.080      action: tap recognized"))
    }

    @Test func scrollPagingLandsOnTheNextPage() throws {
        let run = try Self.run(["scroll", "paging"])
        expectEqual(run.status, 0)
        #expect(run.output.hasPrefix("demo: 1000 rows of 44 pt in a 390×844 scroll view; paging (paging)\n"))
        let lastOffset = run.output.split(separator: "\n").last?.split(separator: " ").dropLast().last
        expectEqual(lastOffset, "844.00")
    }

    @Test func noArgumentsPrintsTheHelp() throws {
        let run = try Self.run([])
        expectEqual(run.status, 0)
        #expect(run.output.contains("USAGE: openuikit <subcommand>"))
        #expect(run.output.contains("trace"))
        #expect(run.output.contains("scroll"))
    }

    @Test func helpNamesASubcommand() throws {
        let run = try Self.run(["help", "scroll"])
        expectEqual(run.status, 0)
        #expect(run.output.contains("USAGE: openuikit scroll [<session>]"))
    }

    @Test func aBadArgumentIsAnErrorOnStandardErrorWithExitCode64() throws {
        let run = try Self.run(["trace", "wiggle"])
        expectEqual(run.status, 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("Error: The value 'wiggle' is invalid for '<gesture>'"))
        #expect(run.errors.contains("Usage: openuikit trace [<gesture>]"))
    }

    // MARK: render

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func renderDrawsASceneFileToAPNG() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("scene.json")
        try Data(#"{ "size": [20, 10], "scale": 2, "views": [ { "frame": [0, 0, 10, 10], "backgroundColor": "red" } ] }"#.utf8).write(to: scene)
        let frame = directory.appendingPathComponent("frame.png")
        let run = try Self.run(["render", scene.path, "-o", frame.path])
        expectEqual(run.status, 0, "\(run.errors)")
        expectEqual(run.output, "wrote \(frame.path)\n")
        let png = try Data(contentsOf: frame)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        expectEqual(Array(png[16..<24]), [0, 0, 0, 40, 0, 0, 0, 20])
    }

    @Test func renderReportsABadSceneFileByLineAndFieldAndWritesNothing() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("bad.json")
        try Data("{\n  \"views\": [\n    { \"frame\": [0, 0, 10] }\n  ]\n}\n".utf8).write(to: scene)
        let frame = directory.appendingPathComponent("frame.png")
        let run = try Self.run(["render", scene.path, "-o", frame.path])
        expectEqual(run.status, 1)
        expectEqual(run.errors, "Error: \(scene.path):3:16: views[0].frame: expected [x, y, width, height], 4 numbers\n")
        #expect(!FileManager.default.fileExists(atPath: frame.path))
    }

    @Test func renderReportsAMissingFileAndAnUnknownPicture() throws {
        let missing = try Self.run(["render", "/nonexistent/scene.json"])
        expectEqual(missing.status, 1)
        expectEqual(missing.errors, "Error: /nonexistent/scene.json: cannot read the file\n")
        let unknown = try Self.run(["render", "no-such-picture"])
        expectEqual(unknown.status, 64)
        #expect(unknown.errors.contains("Error: no-such-picture is neither a file nor a built-in picture (demo, seed-a-nested-views,"))
    }

    @Test func renderListsAndPrintsTheBuiltInPictures() throws {
        let list = try Self.run(["render", "--list"])
        expectEqual(list.status, 0)
        #expect(list.output.hasPrefix("demo: a settings screen: buttons, a switch, a slider and a list in a scroll view\n"))
        expectEqual(list.output.split(separator: "\n").count, 9)
        let printed = try Self.run(["render", "--print", "seed-a-nested-views"])
        expectEqual(printed.status, 0)
        #expect(printed.output.contains(#""name": "grey", "frame": [100, 100, 100, 100]"#))
    }
}
