// The context of one target of a package manifest: the rest of the manifest.
// compile: -I $MANIFEST_API -package-description-version 6.2
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [.package(path: "../OpenUIKit")],
    targets: [
// EXAMPLE
    ]
)
