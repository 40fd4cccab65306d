// The context of a package manifest's lines: the rest of the manifest.
// compile: -I $MANIFEST_API -package-description-version 6.2
import PackageDescription

let package = Package(
    name: "MyApp",
// EXAMPLE
)
