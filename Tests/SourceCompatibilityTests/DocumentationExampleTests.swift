import Foundation
import TestExpectations
import Testing

/// The README and the guides in docs/ are checked like code: every Swift
/// example in them compiles against the modules this package has just
/// built, every link to a file of the repository leads somewhere, and the
/// README's two commands work on a fresh clone.
///
/// An example is a ```swift block. The line before it names its context,
/// `<!-- example-context: NAME -->`: `none` for a block that is a whole
/// file, or a file `Tests/SourceCompatibilityFixtures/ExampleContexts/NAME.swift`
/// that declares what the block uses and has a line `// EXAMPLE` where the
/// block goes. The context stays out of sight of the reader; the example
/// shows only what the reader needs.
@Suite struct DocumentationExampleTests {
    @Test(arguments: DocumentationExample.all())
    func exampleCompiles(_ example: DocumentationExample) throws {
        let source = try example.compilableSource()
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("example-\(getpid())-\(example.fileName.replacingOccurrences(of: "/", with: "-"))-\(example.line).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Compiler.typecheck(path: file.path, languageMode: 6, extraArguments: example.compilerArguments())
        expectEqual(result.status, 0, "\(example) does not compile:\n\(result.output)")
        #expect(!result.output.contains("error:"), "\(example):\n\(result.output)")
    }

    @Test func everySwiftBlockNamesAContextThatExists() throws {
        let examples = DocumentationExample.all()
        #expect(examples.count >= 10, "found only \(examples.count) examples: is the scan reading README.md and docs/?")
        for example in examples {
            #expect(example.context != nil, "\(example): the line before a ```swift block must be <!-- example-context: NAME -->")
            if let context = example.context, context != "none" {
                #expect(FileManager.default.fileExists(atPath: DocumentationExample.contextPath(context).path),
                        "\(example): no context \(context) in Tests/SourceCompatibilityFixtures/ExampleContexts")
            }
        }
    }

    @Test func everyLinkToAFileOfTheRepositoryLeadsToOne() throws {
        var broken: [String] = []
        for document in DocumentationExample.documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            for target in MarkdownLinks.targets(in: text) {
                let path = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                guard !path.isEmpty, !path.contains("://"), !path.hasPrefix("mailto:") else { continue }
                let resolved = document.deletingLastPathComponent().appendingPathComponent(String(path)).standardizedFileURL
                if !FileManager.default.fileExists(atPath: resolved.path) {
                    broken.append("\(document.lastPathComponent): \(target)")
                }
            }
        }
        #expect(broken.isEmpty, "links to nothing: \(broken)")
    }

    @Test func theReadmesTwoCommandsWorkOnAFreshClone() throws {
        let readme = try String(contentsOf: Compiler.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = ReadmeCommands.twoCommands(in: readme)
        expectEqual(commands, ["swift run openuikit demo", "scripts/test"], "the README's two commands changed: update this test with them")

        // A clone of what is committed, so that a file the commands need
        // but nobody committed fails here, as it would for a newcomer.
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-clone-\(getpid())")
        defer { try? FileManager.default.removeItem(at: clone) }
        // scripts/test runs the tests in a copy of the package that is no
        // repository, and names the repository.
        let repository = ProcessInfo.processInfo.environment["OPENUIKIT_REPOSITORY"] ?? Compiler.packageRoot.path
        let cloned = try Compiler.run("/usr/bin/env", ["git", "clone", "--quiet", "--no-hardlinks", repository, clone.path])
        try #require(cloned.status == 0, "git clone: \(cloned.output)")

        // The main program, through the README's own command. Building it
        // again from nothing would take minutes: the command runs, with
        // --skip-build, on the program this test run has built, copied into
        // the clone's build folder (the package's own is locked while
        // `swift test` runs).
        let products = try Compiler.modulesDirectory().deletingLastPathComponent()
        let scratch = clone.appendingPathComponent(".build")
        let copiedProducts = scratch.appendingPathComponent(products.deletingLastPathComponent().lastPathComponent).appendingPathComponent("debug")
        try FileManager.default.createDirectory(at: copiedProducts, withIntermediateDirectories: true)
        // The demo starts the server and the demo app, built beside it.
        // Copied by `cp`, not in this process: a process another test starts
        // while a copy is open for writing here can inherit that descriptor,
        // and while it holds it, running the copy fails with "Text file busy"
        // (ETXTBSY; it happened once in a parallel run).
        let copied = try Compiler.run(
            "/usr/bin/env", ["cp"] + ["openuikit", "openuikit-server", "OpenUIKitDemo"].map { products.appendingPathComponent($0).path }
                + [copiedProducts.path])
        try #require(copied.status == 0, "cp: \(copied.output)")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.appendingPathComponent("debug").path,
            withDestinationPath: "\(products.deletingLastPathComponent().lastPathComponent)/debug")
        let words = commands.first?.split(separator: " ").map(String.init) ?? []
        try #require(words.starts(with: ["swift", "run"]))
        let options = ["--skip-build"]
        // Headless, for eight seconds, on a 1x screen (a debug build draws a 3x
        // one slowly), its frames written where this test looks.
        let frames = clone.appendingPathComponent("frames")
        let bounded = ["--display", "headless", "--frames", frames.path, "--screen", "390x844@1", "--seconds", "8"]
        let main = try Compiler.run("/usr/bin/env", Array(words.prefix(2)) + options + Array(words.dropFirst(2)) + bounded, directory: clone)
        expectEqual(main.status, 0, "\(main.output)")
        #expect(main.output.contains("demo ready"), "the demo app did not start:\n\(main.output)")
        #expect(FileManager.default.fileExists(atPath: frames.appendingPathComponent("frame-000001.png").path), "the demo showed no frame:\n\(main.output)")

        // The test command: its list of passes, not the passes themselves
        // (this test is one of them).
        let tests = try Compiler.run(clone.appendingPathComponent("scripts/test").path, ["--list"], directory: clone)
        expectEqual(tests.status, 0, "\(tests.output)")
        for pass in ["unit", "docs"] {
            #expect(tests.output.contains(pass), "scripts/test --list names no \(pass) pass:\n\(tests.output)")
        }
    }
}

extension DocumentationExampleTests {
    /// The README's two-process demo, pasted as one block, with the app
    /// slow to start (a second late, as on a loaded machine): the replay
    /// must wait for it instead of playing to no application. The block
    /// runs on this test run's programs, in a directory of its own.
    @Test func theReadmesTwoProcessDemoWorksPastedAsOneBlockWithASlowApp() throws {
        let readme = try String(contentsOf: Compiler.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = ReadmeCommands.demo(in: readme)
        expectEqual(block.first, "swift build", "the README's demo changed: update this test with it")
        #expect(block.contains { $0.contains("openuikit replay") }, "the README's demo changed: update this test with it")
        let products = try Compiler.modulesDirectory().deletingLastPathComponent().path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-demo-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = block.dropFirst().map { line in
            line.replacingOccurrences(of: "/tmp/demo", with: directory)
                .replacingOccurrences(of: ".build/debug/TouchLogger", with: "sh -c 'sleep 1; exec \(products)/TouchLogger'")
                .replacingOccurrences(of: ".build/debug/", with: "\(products)/")
        }
        let script = """
            mkdir -p \(directory) && chmod 700 \(directory)
            exec >\(directory)/out.log 2>&1
            trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT
            \(lines.joined(separator: "\n"))
            for i in $(seq 100); do grep -q 'right ended' \(directory)/out.log && exit 0; sleep 0.1; done
            exit 1
            """
        let result = try Compiler.run("/bin/bash", ["-c", script], directory: Compiler.packageRoot)
        let output = (try? String(contentsOfFile: "\(directory)/out.log", encoding: .utf8)) ?? ""
        expectEqual(result.status, 0, "the demo's app saw no 'right ended':\n\(output)")
        #expect(output.contains("played 6 events"), "\(output)")
        #expect(output.contains("left began 1 (100,200)"), "\(output)")
    }
}

/// One ```swift block of README.md or a guide in docs/.
struct DocumentationExample: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    var fileName: String
    var line: Int
    var context: String?
    var code: String

    var description: String { "\(fileName):\(line)" }
    var testDescription: String { description }

    static let examplesDirectory = Compiler.packageRoot.appendingPathComponent("Tests/SourceCompatibilityFixtures/ExampleContexts")

    static func contextPath(_ name: String) -> URL {
        examplesDirectory.appendingPathComponent("\(name).swift")
    }

    /// README.md and every Markdown file in docs/.
    static func documents() -> [URL] {
        let root = Compiler.packageRoot
        let docs = root.appendingPathComponent("docs")
        let guides = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
            .filter { $0.hasSuffix(".md") }
            .sorted()
            .map { docs.appendingPathComponent($0) }
        return [root.appendingPathComponent("README.md")] + guides
    }

    static func all() -> [DocumentationExample] {
        var examples: [DocumentationExample] = []
        for document in documents() {
            guard let text = try? String(contentsOf: document, encoding: .utf8) else { continue }
            let name = document.path.replacingOccurrences(of: Compiler.packageRoot.path + "/", with: "")
            examples += parse(text, fileName: name)
        }
        return examples
    }

    static func parse(_ text: String, fileName: String) -> [DocumentationExample] {
        let lines = text.components(separatedBy: "\n")
        var examples: [DocumentationExample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            let marker = start > 0 ? lines[start - 1].trimmingCharacters(in: .whitespaces) : ""
            var context: String?
            if marker.hasPrefix("<!-- example-context:"), marker.hasSuffix("-->") {
                context = marker.dropFirst("<!-- example-context:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
            }
            examples.append(DocumentationExample(fileName: fileName, line: start + 1, context: context, code: body.joined(separator: "\n")))
            index += 1
        }
        return examples
    }

    /// The example in its context, as one file.
    func compilableSource() throws -> String {
        guard let context else { throw Compiler.Missing(description: "\(self) names no example-context") }
        if context == "none" { return code + "\n" }
        let wrapper = try String(contentsOf: Self.contextPath(context), encoding: .utf8)
        guard wrapper.contains("// EXAMPLE\n") else {
            throw Compiler.Missing(description: "context \(context) has no // EXAMPLE line")
        }
        return wrapper.replacingOccurrences(of: "// EXAMPLE\n", with: code + "\n")
    }

    /// An `@main` type needs a library file. A context may ask for more
    /// with lines `// compile: ARGUMENT…` (a context of declarations only
    /// asks for `-parse-as-library`); `$MANIFEST_API` is the toolchain's
    /// PackageDescription, which it keeps apart.
    func compilerArguments() throws -> [String] {
        var arguments: [String] = []
        if code.contains("@main") { arguments.append("-parse-as-library") }
        guard let context, context != "none" else { return arguments }
        let manifestAPI = try Compiler.toolchainLibrary.appendingPathComponent("swift/pm/ManifestAPI").path
        for line in try String(contentsOf: Self.contextPath(context), encoding: .utf8).components(separatedBy: "\n")
        where line.hasPrefix("// compile: ") {
            arguments += line.dropFirst("// compile: ".count).split(separator: " ").map {
                $0 == "$MANIFEST_API" ? manifestAPI : String($0)
            }
        }
        return arguments
    }
}

/// The targets of Markdown's inline links and images, `[text](target)`,
/// outside code blocks and code spans.
enum MarkdownLinks {
    static func targets(in text: String) -> [String] {
        var targets: [String] = []
        var inCodeBlock = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCodeBlock.toggle()
                continue
            }
            if inCodeBlock { continue }
            var outsideCode = ""
            var inSpan = false
            for character in line {
                if character == "`" { inSpan.toggle() } else if !inSpan { outsideCode.append(character) }
            }
            var rest = Substring(outsideCode)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[after.index(after: close)...]
            }
        }
        return targets
    }
}

/// The README's "The two commands": its indented command lines.
enum ReadmeCommands {
    /// The indented lines of the README's event-server section: the two-process demo.
    static func demo(in readme: String) -> [String] {
        guard let section = readme.components(separatedBy: "\n### ").first(where: { $0.hasPrefix("Input and the event server") }) else { return [] }
        return section.components(separatedBy: "\n")
            .filter { $0.hasPrefix("    ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func twoCommands(in readme: String) -> [String] {
        guard let section = readme.components(separatedBy: "\n## ").first(where: { $0.hasPrefix("The two commands") }) else { return [] }
        return section.components(separatedBy: "\n")
            .filter { $0.hasPrefix("    ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
