// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "OpenUIKit",
    products: [
        .library(name: "UIKit", targets: ["UIKit", "_Testing_UIKit", "_Testing_CoreGraphics"]),
        .library(name: "QuartzCore", targets: ["QuartzCore", "_Testing_CoreGraphics"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics", "_Testing_CoreGraphics"]),
        .library(name: "HID", targets: ["HID"]),
        .library(name: "EventServer", targets: ["EventServer"]),
        .executable(name: "openuikit", targets: ["openuikit"]),
        .executable(name: "openuikit-server", targets: ["openuikit-server"]),
        .executable(name: "openuikit-benchmarks", targets: ["CoreBenchmarks"]),
        .executable(name: "openuikit-render-benchmarks", targets: ["RenderBenchmarks"]),
        .executable(name: "openuikit-layout-benchmark", targets: ["LayoutBenchmarks"]),
        .executable(name: "openuikit-latency-benchmark", targets: ["EventServerLatency"]),
        .executable(name: "openuikit-latency-app", targets: ["LatencyApp"]),
        .executable(name: "openuikit-display-benchmark", targets: ["DisplayBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The inspector's HTTP and WebSocket server: no dependencies of its
        // own, so it builds in a fraction of Hummingbird's time
        // (docs/inspector.md has both measured).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // The hardware side and the system side.
        .target(name: "HID", dependencies: ["CSharedMemory"]),
        .target(name: "EventServer", dependencies: ["HID", "CLinuxInput", "CPNG", "CX11"]),

        // memfd buffers and descriptors passed between applications and the server.
        .systemLibrary(name: "CSharedMemory"),
        // C libraries every machine of this kind has, with their headers.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig"),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CJPEG"),
        // libjpeg's errors need setjmp, which Swift cannot call: this small C
        // target decodes and encodes behind one (see its source).
        .target(name: "CJPEGCodec", linkerSettings: [.linkedLibrary("jpeg")]),
        // The kernel's evdev, timerfd and inotify interfaces.
        .systemLibrary(name: "CLinuxInput"),
        // Xlib and its MIT-SHM extension, for the event server's window (libXi is loaded at run time).
        .systemLibrary(name: "CX11"),
        // libdispatch's and Core Foundation's hooks for serving the main thread.
        .systemLibrary(name: "CMainThreadHooks"),

        // The frameworks, bottom up.
        .target(name: "CoreGraphics", dependencies: ["CFreeType", "CFontconfig", "CPNG", "CJPEG", "CJPEGCodec"]),
        .target(name: "_Testing_CoreGraphics", dependencies: ["CoreGraphics"]),
        .target(name: "QuartzCore", dependencies: ["CoreGraphics"]),
        // The Cassowary constraint solver under Auto Layout; it knows nothing of views.
        .target(name: "LayoutSolver"),
        // The Clang module underneath UIKit, for `import UIKit.UIGestureRecognizerSubclass`.
        .systemLibrary(name: "UIKitClangModule"),
        .target(
            name: "UIKit",
            dependencies: ["HID", "QuartzCore", "LayoutSolver", "UIKitClangModule", "CMainThreadHooks"],
            // The symbols' outlines are Bootstrap Icons (scripts/import-symbols).
            exclude: ["Drawing/Symbols/LICENSE-bootstrap-icons.txt"]
        ),
        .target(name: "_Testing_UIKit", dependencies: ["UIKit"]),
        // The live inspector: a page on 127.0.0.1 showing the screen, the
        // view tree and each touch's way; `import UIKit` does not pull it in.
        .target(
            name: "Inspector",
            dependencies: ["UIKit", "HID", .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox")]
        ),

        // Tools. The tool's commands live in a library so that tests can parse them.
        // Scene files (JSON view trees) are read by a module with no
        // dependencies, so that the fuzzer can build it on its own.
        .target(name: "SceneFile"),
        .target(
            name: "OpenUIKitCommands",
            dependencies: ["UIKit", "EventServer", "SceneFile", "Inspector", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `openuikit demo` starts the server and the demo app, so `swift run
        // openuikit` builds both with it.
        .executableTarget(name: "openuikit", dependencies: ["OpenUIKitCommands", "openuikit-server", "OpenUIKitDemo"]),
        .executableTarget(name: "OpenUIKitDemo", dependencies: ["UIKit"], path: "Examples/Demo"),
        .executableTarget(
            name: "openuikit-server",
            dependencies: ["EventServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "TouchLogger",
            dependencies: ["UIKit"],
            path: "Examples/TouchLogger"
        ),
        // An application as Xcode's template writes it, for the end-to-end tests of the main thread.
        .executableTarget(name: "TemplateApp", dependencies: ["UIKit", "HID"], path: "Tests/Apps/TemplateApp"),
        // An application with a scene delegate, as Xcode's template has since iOS 13.
        .executableTarget(name: "SceneApp", dependencies: ["UIKit"], path: "Tests/Apps/SceneApp"),
        // An application whose main.swift names its delegate class.
        .executableTarget(name: "MainSwiftApp", dependencies: ["UIKit"], path: "Tests/Apps/MainSwiftApp"),
        .executableTarget(name: "EventServerLatency", dependencies: ["HID"], path: "Benchmarks/EventServerLatency"),
        .executableTarget(name: "LatencyApp", dependencies: ["UIKit"], path: "Benchmarks/LatencyApp"),
        .executableTarget(name: "DisplayBenchmarks", dependencies: ["EventServer", "HID"], path: "Benchmarks/DisplayBenchmarks"),
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: ["UIKit"],
            path: "Benchmarks/CoreBenchmarks"
        ),
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: ["UIKit"],
            path: "Benchmarks/RenderBenchmarks"
        ),

        // The solver against kiwi's C++ (kiwi_benchmark.cpp, built by Benchmarks/layout.sh).
        .executableTarget(
            name: "LayoutBenchmarks",
            dependencies: ["LayoutSolver"],
            path: "Benchmarks/LayoutBenchmarks",
            exclude: ["kiwi_benchmark.cpp"],
            // Rounding and square roots, without Foundation.
            linkerSettings: [.linkedLibrary("m")]
        ),

        // Tests.
        // `expectEqual`, the test targets' cheap-to-compile equality check.
        .target(name: "TestExpectations", path: "Tests/TestExpectations"),
        .target(name: "GeometryTestSupport", dependencies: ["CoreGraphics"], path: "Tests/GeometryTestSupport"),
        .target(name: "DrawingTestSupport", dependencies: ["CoreGraphics"], path: "Tests/DrawingTestSupport"),
        .testTarget(name: "HIDTests", dependencies: ["TestExpectations", "HID", "CSharedMemory"]),
        .testTarget(name: "EventServerTests", dependencies: ["TestExpectations", "EventServer", "HID", "CX11"], exclude: ["Recordings"]),
        // Runs the server, the demo application and the tools as processes of their own.
        .testTarget(name: "EndToEndTests", dependencies: ["TestExpectations", "HID", "CPNG", "Inspector", "UIKit"]),
        .testTarget(name: "CoreGraphicsTests", dependencies: ["TestExpectations", "CoreGraphics", "_Testing_CoreGraphics", "GeometryTestSupport", "DrawingTestSupport"]),
        .testTarget(name: "LayoutSolverTests", dependencies: ["TestExpectations", "LayoutSolver"]),
        .testTarget(name: "QuartzCoreTests", dependencies: ["TestExpectations", "QuartzCore", "_Testing_CoreGraphics", "GeometryTestSupport"]),
        .testTarget(
            name: "UIKitTests",
            dependencies: ["TestExpectations", "UIKit", "_Testing_UIKit", "_Testing_CoreGraphics", "HID", "GeometryTestSupport", "CFreeType", "DrawingTestSupport"],
            exclude: ["References"],
            // An asset catalog and loose images read through `Bundle.module`,
            // as an app's own package declares them (docs/resources.md).
            resources: [.copy("Resources/Assets.xcassets"), .process("Resources/Images")]
        ),
        .testTarget(name: "InspectorTests", dependencies: ["TestExpectations", "Inspector", "UIKit", "HID", .product(name: "FlyingFox", package: "FlyingFox")]),
        .testTarget(name: "OpenUIKitCommandsTests", dependencies: ["TestExpectations", "OpenUIKitCommands", "SceneFile", "UIKit", "DrawingTestSupport"], exclude: ["References"]),
        // Compiles client code (Tests/SourceCompatibilityFixtures) against the built modules.
        .testTarget(name: "SourceCompatibilityTests", dependencies: ["TestExpectations", "UIKit"]),
    ],
    swiftLanguageModes: [.v6]
)
