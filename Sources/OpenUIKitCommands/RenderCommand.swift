import ArgumentParser
import Foundation
import SceneFile
import UIKit

/// `openuikit render [SCENE] [-o OUTPUT]`.
public struct RenderCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a scene file, or the built-in pictures, to PNG.",
        discussion: """
            SCENE is a scene file (JSON; the format is in docs/scene-files.md) \
            or the name of a built-in picture (--list names them). The views \
            are laid out, drawn and composited as the screen shows them, at the \
            scene's scale. Without SCENE, every built-in picture is drawn into \
            the directory OUTPUT (default: renders). A scene file with a \
            problem is reported as FILE:LINE:COLUMN: FIELD: what is wrong.
            """
    )

    @Argument(help: "A scene file (.json), or the name of a built-in picture.")
    public var scene: String?

    @Option(name: .shortAndLong, help: "The PNG file to write (default: the scene's name with .png), or the directory for all built-in pictures.")
    public var output: String?

    @Flag(help: "List the built-in pictures.")
    public var list = false

    @Flag(name: .customLong("print"), help: "Print the built-in picture's scene file instead of drawing it.")
    public var printScene = false

    public init() {}

    /// A scene file larger than this is refused before it is read (chosen
    /// here: a scene of the largest number of views is far smaller).
    static let maximumFileSize = 16 << 20

    public func run() throws {
        if list {
            for entry in BuiltInScenes.all { print("\(entry.name): \(entry.summary)") }
            return
        }
        guard let scene else {
            try renderAllBuiltIns(into: output ?? "renders")
            return
        }
        if let entry = BuiltInScenes.named(scene), !FileManager.default.fileExists(atPath: scene) {
            if printScene { print(entry.json); return }
            let path = output ?? "\(entry.name).png"
            try render(json: Array(entry.json.utf8), name: entry.name, imagesIn: currentDirectory, to: path)
            print("wrote \(path)")
            return
        }
        guard !printScene else { throw ValidationError("--print takes the name of a built-in picture (see --list)") }
        guard scene.hasSuffix(".json") || FileManager.default.fileExists(atPath: scene) else {
            throw ValidationError("\(scene) is neither a file nor a built-in picture (\(BuiltInScenes.all.map(\.name).joined(separator: ", ")))")
        }
        let url = URL(fileURLWithPath: scene)
        let bytes = try Self.readSceneFile(url)
        let path = output ?? url.deletingPathExtension().lastPathComponent + ".png"
        try render(json: bytes, name: scene, imagesIn: url.deletingLastPathComponent(), to: path)
        print("wrote \(path)")
    }

    private var currentDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }

    static func readSceneFile(_ url: URL) throws -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw RenderError(message: "\(url.path): cannot read the file")
        }
        if let size = attributes[.size] as? Int, size > maximumFileSize {
            throw RenderError(message: "\(url.path): \(size) bytes is larger than a scene file may be (\(maximumFileSize) bytes)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw RenderError(message: "\(url.path): cannot read the file")
        }
        return Array(data)
    }

    private func renderAllBuiltIns(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for entry in BuiltInScenes.all {
            let path = (directory as NSString).appendingPathComponent("\(entry.name).png")
            try render(json: Array(entry.json.utf8), name: entry.name, imagesIn: currentDirectory, to: path)
            print("wrote \(path)")
        }
    }

    private func render(json: [UInt8], name: String, imagesIn directory: URL, to path: String) throws {
        let png: Data
        do {
            let scene = try Scene.read(json)
            png = try MainActor.assumeIsolated { try SceneRenderer.pngData(of: scene, imagesIn: directory) }
        } catch let error as SceneFileError {
            throw RenderError(message: "\(name):\(error)")
        }
        do {
            try png.write(to: URL(fileURLWithPath: path))
        } catch {
            throw RenderError(message: "\(path): cannot write the picture (\(error.localizedDescription))")
        }
    }
}

/// A problem `openuikit render` reports, then exits with status 1.
struct RenderError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
