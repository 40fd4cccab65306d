import Foundation

/// Where `UIColor(named:)` and `UIImage(named:)` look for what they name.
///
/// On iOS, Xcode compiles asset catalogs into `Assets.car` inside the app
/// bundle. There is no such compiler on Linux, so catalogs are read as
/// their source folders: SwiftPM copies a target's resources next to the
/// executable (`<Package>_<Target>.resources`, which is `Bundle.module`),
/// and an app's own files sit in `Bundle.main`'s resource directory (the
/// executable's directory for a plain executable). In a bundle, a name is
/// looked up in this order:
///
/// 1. the bundle's resource directory itself (`Name.colorset`,
///    `Name.imageset`, `Name.png`, `Name@2x.png`, …);
/// 2. each asset catalog (`*.xcassets`) directly in the resource directory,
///    searching its folders as Xcode does: a name `Folder/Name` names an
///    asset in a folder `Folder` (whether or not it provides a namespace),
///    a bare name an asset in any folder.
///
/// Declare the resources in `Package.swift` with `.copy("Assets.xcassets")`
/// (or `.copy` of a folder holding loose images): `.process` leaves
/// catalogs to Xcode's compiler on Apple platforms.
enum NamedResources {
    /// How deep folders inside a catalog are searched.
    static let maximumFolderDepth = 8

    /// The directory a bundle's resources are in.
    static func resourceDirectory(of bundle: Bundle) -> URL {
        (bundle.resourceURL ?? bundle.bundleURL).standardizedFileURL
    }

    /// The asset folder `<name>.<kind>` (`kind` is `colorset` or
    /// `imageset`) for `name` in `bundle`, or nil.
    static func assetFolder(named name: String, kind: String, in bundle: Bundle) -> URL? {
        let components = name.split(separator: "/").map(String.init)
        guard let last = components.last, !components.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let folders = Array(components.dropLast())
        let root = resourceDirectory(of: bundle)
        let direct = folders.reduce(root) { $0.appendingPathComponent($1) }.appendingPathComponent("\(last).\(kind)")
        if isDirectory(direct) { return direct }
        for catalog in catalogs(in: root) {
            if let found = search(catalog, for: "\(last).\(kind)", under: folders) { return found }
        }
        return nil
    }

    /// The asset catalogs (`*.xcassets`) directly in `directory`, by name.
    static func catalogs(in directory: URL) -> [URL] {
        let entries = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return entries.filter { $0.pathExtension == "xcassets" && isDirectory($0) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Looks for the folder `target` in `directory` and its group folders
    /// (folders that are not assets themselves), breadth first, so the
    /// shallowest match wins. `folders` is the path the name gave: the
    /// match must sit in folders ending with it.
    private static func search(_ directory: URL, for target: String, under folders: [String]) -> URL? {
        var level = [(directory, [String]())]
        for _ in 0...maximumFolderDepth {
            var next: [(URL, [String])] = []
            for (folder, path) in level {
                let candidate = folder.appendingPathComponent(target)
                if path.suffix(folders.count) == folders[...], isDirectory(candidate) { return candidate }
                let entries = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
                for entry in entries.sorted(by: { $0.lastPathComponent < $1.lastPathComponent })
                    where entry.pathExtension.isEmpty && isDirectory(entry) {
                    next.append((entry, path + [entry.lastPathComponent]))
                }
            }
            if next.isEmpty { break }
            level = next
        }
        return nil
    }

    static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// The bundle a name is looked up in when the caller gives none.
    static func defaultBundle(_ bundle: Bundle?) -> Bundle { bundle ?? .main }
}

/// What is wrong with an asset's `Contents.json`.
struct AssetCatalogError: Error, CustomStringConvertible, Equatable {
    let file: String
    let problem: String
    var description: String { "\(file): \(problem)" }
}

/// An asset's `Contents.json`, read as loosely typed JSON: the catalog's
/// format has optional keys everywhere, and what this code does not use
/// it ignores.
struct AssetContents {
    let url: URL
    let root: [String: Any]

    init(folder: URL) throws {
        url = folder.appendingPathComponent("Contents.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AssetCatalogError(file: url.path, problem: "no Contents.json")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw AssetCatalogError(file: url.path, problem: "not a JSON object")
        }
        self.root = root
    }

    /// The entries under `key` (`colors`, `images`), keeping those for an
    /// iPhone (idiom `universal` or `iphone`, the latter first) and for the
    /// appearance asked for: an entry with no luminosity appearance is the
    /// light one ("any"), and one for dark is used only when dark is asked
    /// for (an explicit "light" entry before an "any" one). Entries for
    /// high contrast are left out.
    func entries(_ key: String, dark: Bool) throws -> [[String: Any]] {
        guard let list = root[key] as? [[String: Any]] else {
            throw AssetCatalogError(file: url.path, problem: "no \"\(key)\" list")
        }
        func luminosity(_ entry: [String: Any]) -> String? {
            appearances(entry).first { $0.appearance == "luminosity" }?.value
        }
        let forPhone = list.filter { entry in
            let idiom = entry["idiom"] as? String ?? "universal"
            return (idiom == "universal" || idiom == "iphone")
                && !appearances(entry).contains { $0.appearance == "contrast" }
        }
        let byIdiom = forPhone.filter { $0["idiom"] as? String == "iphone" } + forPhone.filter { $0["idiom"] as? String != "iphone" }
        let light = byIdiom.filter { luminosity($0) == "light" } + byIdiom.filter { luminosity($0) == nil }
        let darkOnes = byIdiom.filter { luminosity($0) == "dark" }
        return dark ? darkOnes + light : light
    }

    private func appearances(_ entry: [String: Any]) -> [(appearance: String, value: String)] {
        (entry["appearances"] as? [[String: Any]] ?? []).compactMap {
            guard let appearance = $0["appearance"] as? String, let value = $0["value"] as? String else { return nil }
            return (appearance, value)
        }
    }
}
