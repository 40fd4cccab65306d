// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenUIKit",
    products: [
        .library(name: "UIKit", targets: ["UIKit", "_Testing_UIKit"]),
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "HID", targets: ["HID"]),
        .executable(name: "openuikit", targets: ["openuikit"]),
        .executable(name: "openuikit-benchmarks", targets: ["CoreBenchmarks"]),
    ],
    targets: [
        .target(name: "HID"),
        .target(name: "QuartzCore"),
        .target(name: "UIKit", dependencies: ["HID", "QuartzCore"]),
        .target(name: "_Testing_UIKit", dependencies: ["UIKit"]),
        .executableTarget(name: "openuikit", dependencies: ["UIKit"]),
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: ["UIKit"],
            path: "Benchmarks/CoreBenchmarks"
        ),
        .testTarget(name: "HIDTests", dependencies: ["HID"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore"]),
        .testTarget(name: "UIKitTests", dependencies: ["UIKit", "_Testing_UIKit", "HID"]),
    ],
    swiftLanguageModes: [.v6]
)
