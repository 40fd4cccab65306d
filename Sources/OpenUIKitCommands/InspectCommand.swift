#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import HID
import Inspector
import SceneFile
import UIKit

/// `openuikit inspect [SCENE | --attach [NAME]] [--port N] [--listen ADDRESS]`.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Serve a live inspector page for a scene: its screen, view tree and each touch's way.",
        discussion: """
            Runs SCENE (a built-in picture such as seed-b-traced-hierarchy, or \
            a scene file; `openuikit render --list` names the pictures; without \
            one, the demo screen) in this process and serves a page on \
            http://127.0.0.1:PORT/ that shows the screen as it changes, the view \
            tree, and for each touch the hit-test walk, the view found, the \
            responder chain, the recognizers' contest and every touch method \
            called. Clicking and dragging on the screen picture are touches, \
            sent through the application's input port. The page's picker \
            switches between the built-in scenes.

            With --attach it inspects an application running on the event \
            server instead (NAME, or the one in front): the application \
            answers through the server, which allows only a process of the \
            application's own user; the page's touches go to the server as \
            input. See docs/inspector.md.
            """
    )

    @Argument(help: "A built-in picture's name or a scene file (default: demo); with --attach, the application's name (default: the one in front).")
    var scene: String?

    @Flag(help: "Inspect an application running on the event server instead of running a scene.")
    var attach = false

    @OptionGroup var server: ServerSocketOption

    @Option(help: "The port to serve on (0: any free port, printed).")
    var port: UInt16 = 8420

    @Option(help: ArgumentHelp("Serve on this address instead of 127.0.0.1 (the page then accepts touches from anyone who can reach it).", valueName: "address"))
    var listen: String?

    @Option(help: ArgumentHelp("Stop after this many seconds (for scripts and tests).", valueName: "seconds"))
    var seconds: Double?

    func validate() throws {
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be a positive number") }
    }

    func run() throws {
        if attach { return try runAttached() }
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var scenes = BuiltInScenes.all.map { entry in
            InspectorSession.Scene(name: entry.name, summary: entry.summary) {
                try SceneRenderer.makeWindow(Scene.read(Array(entry.json.utf8)), imagesIn: directory)
            }
        }
        let initialScene: String
        if let scene, BuiltInScenes.named(scene) == nil {
            let url = URL(fileURLWithPath: scene)
            let parsed: Scene
            do {
                parsed = try Scene.read(RenderCommand.readSceneFile(url))
            } catch let error as SceneFileError {
                throw RenderError(message: "\(scene):\(error)")
            }
            scenes.insert(InspectorSession.Scene(name: scene, summary: "the scene file \(scene)") {
                try SceneRenderer.makeWindow(parsed, imagesIn: url.deletingLastPathComponent())
            }, at: 0)
            initialScene = scene
        } else {
            initialScene = scene ?? "demo"
        }
        try serve(what: "scene \(initialScene)") {
            try InspectorSession(scenes: scenes, initialScene: initialScene)
        }
    }

    /// `--attach [NAME]`: an application on the event server.
    private func runAttached() throws {
        let name = scene ?? ""
        let socket = server.socket
        try serve(what: name.isEmpty ? "the application in front" : "application \(name)") {
            let session = try InspectorSession(attachingTo: name, serverPath: socket)
            session.readServerOnMainQueue { problem in
                FileHandle.standardError.write(Data("openuikit inspect: \(problem)\n".utf8))
                Glibc.exit(1)
            }
            return session
        }
    }

    /// Serves the session `makeSession` makes until `--seconds` pass, or for ever.
    private func serve(what: String, makeSession: @MainActor () throws -> InspectorSession) throws {
        let host = listen ?? "127.0.0.1"
        let port = port
        let seconds = seconds
        try MainActor.assumeIsolated {
            let application = UIApplication.shared
            application.runLoop.serveMainThread()
            let session = try makeSession()
            let server = try InspectorServer(session: session, host: host, port: port)
            Task {
                do {
                    try await server.run()
                } catch {
                    FileHandle.standardError.write(Data("openuikit inspect: cannot serve on \(host):\(port): \(error)\n".utf8))
                    Glibc.exit(1)
                }
            }
            Task {
                try await server.waitUntilListening()
                let actual = await server.listeningPort() ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                // Written straight to the descriptor: a script waits for this line.
                FileHandle.standardOutput.write(Data("inspector: http://\(shownHost):\(actual)/ (\(what); Ctrl-C to stop)\n".utf8))
            }
            if let seconds {
                application.runLoop.run(for: seconds)
            } else {
                while true { application.runLoop.run(for: 3600) }
            }
            withExtendedLifetime(session) {}
        }
    }
}
