import Foundation
import TestExpectations
import Testing

/// Client code compiled against the modules this package has just built,
/// as a project depending on it would compile: the imports Apple documents,
/// and code written for Swift 5 that touches UIKit off the main actor.
///
/// The fixtures live in `Tests/SourceCompatibilityFixtures` and are
/// type-checked with `swiftc -typecheck` against the build directory's
/// modules, which takes seconds, instead of building a fixture package
/// (which would build the whole package again).
@Suite struct SourceCompatibilityTests {
    @Test func gestureRecognizerSubclassAndCoreGraphicsImportsCompileWithoutWarnings() throws {
        let result = try Compiler.typecheck("SubclassingAndImports.swift", languageMode: 6)
        expectEqual(result.status, 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    @Test func codeUsingUIKitsClassesAsNSObjectsCompilesWithoutWarnings() throws {
        for mode in [5, 6] {
            let result = try Compiler.typecheck("NSObjectUse.swift", languageMode: mode)
            expectEqual(result.status, 0, "Swift \(mode): \(result.output)")
            #expect(!result.output.contains("warning:"), "Swift \(mode): \(result.output)")
        }
    }

    // Apple declares the image-context functions, UIGraphicsImageRenderer
    // and UIImage's drawing without main-actor isolation.
    @Test func drawingImagesOffTheMainActorCompilesWithoutWarnings() throws {
        for mode in [5, 6] {
            let result = try Compiler.typecheck("DrawingOffTheMainActor.swift", languageMode: mode)
            expectEqual(result.status, 0, "Swift \(mode): \(result.output)")
            #expect(!result.output.contains("warning:"), "Swift \(mode): \(result.output)")
        }
    }

    @Test func swift5CodeTouchingUIKitOffTheMainActorCompilesWithWarningsOnly() throws {
        let result = try Compiler.typecheck("NonisolatedUse.swift", languageMode: 5)
        expectEqual(result.status, 0, "\(result.output)")
        #expect(!result.output.contains("error:"), "\(result.output)")
    }

    @Test func swift6CodeTouchingUIKitOffTheMainActorIsStillChecked() throws {
        // Synchronous nonisolated code gets warnings, as `@preconcurrency`
        // main-actor API gives…
        let sync = try Compiler.typecheck("NonisolatedUse.swift", languageMode: 6)
        #expect(sync.output.contains("warning: call to main actor-isolated initializer 'init(frame:)' in a synchronous nonisolated context"), "\(sync.output)")
        // …and asynchronous code that would run off the main actor an error.
        let async = try Compiler.typecheck("NonisolatedUseFromAsyncCode.swift", languageMode: 6)
        #expect(async.status != 0)
        #expect(async.output.contains("error: expression is 'async' but is not marked with 'await'"), "\(async.output)")
    }

    @Test func aSubmoduleUIKitDoesNotHaveIsAnErrorNamingIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("MissingSubmodule-\(getpid()).swift")
        try "import UIKit.UIKitCore\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Compiler.typecheck(path: file.path, languageMode: 6)
        #expect(result.status != 0)
        #expect(result.output.contains("UIKit.UIKitCore"), "\(result.output)")
    }
}

/// `swiftc -typecheck` with the build directory's modules and the package's
/// Clang module maps.
enum Compiler {
    struct Result {
        var status: Int32
        var output: String
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func typecheck(_ fixture: String, languageMode: Int) throws -> Result {
        try typecheck(path: packageRoot.appendingPathComponent("Tests/SourceCompatibilityFixtures/\(fixture)").path, languageMode: languageMode)
    }

    static func typecheck(path: String, languageMode: Int, extraArguments: [String] = []) throws -> Result {
        let modules = try modulesDirectory()
        var arguments = ["-typecheck", "-swift-version", "\(languageMode)", "-I", modules.path]
        let sources = packageRoot.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            // System-library targets keep their map at the top; C targets in include/.
            for map in ["module.modulemap", "include/module.modulemap"].map({ sources.appendingPathComponent(target).appendingPathComponent($0) })
            where FileManager.default.fileExists(atPath: map.path) {
                arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
        }
        for flag in try run("/usr/bin/env", ["pkg-config", "--cflags", "freetype2", "fontconfig", "libpng"]).output.split(separator: " ") {
            arguments += ["-Xcc", flag.trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        arguments += extraArguments
        arguments.append(path)
        return try run("/usr/bin/env", ["swiftc"] + arguments)
    }

    /// `Modules` beside this test bundle: where SwiftPM puts the modules it built.
    static func modulesDirectory() throws -> URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let modules = bundle.deletingLastPathComponent().appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("UIKit.swiftmodule").path) else {
            throw Missing(description: "no UIKit.swiftmodule in \(modules.path): build the package first (swift build --build-tests)")
        }
        return modules
    }

    /// The toolchain's `lib` folder: beside the `bin` that holds `swiftc`.
    static var toolchainLibrary: URL {
        get throws {
            let swiftc = try run("/usr/bin/env", ["which", "swiftc"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            return URL(fileURLWithPath: swiftc).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib")
        }
    }

    static func run(_ executable: String, _ arguments: [String], directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
