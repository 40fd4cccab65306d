import ArgumentParser
import UIKit

/// `openuikit trace [tap|long-press|pan]`.
public struct TraceCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Trace hit-testing and touch delivery, or a gesture's recognizers.",
        discussion: """
            Without a gesture: builds the traced hierarchy of the seed article \
            (root ← light grey ← red, green; root ← yellow), taps it at \
            (56.67, 167) and prints every hit-test call, point(inside:) answer \
            and touch delivery in order.

            With a gesture: runs it on a demo card that has tap, long-press and \
            pan recognizers, and prints each recognizer state change, action \
            and touch delivery with its time on the run loop's clock.
            """
    )

    /// A gesture the demo card can be given.
    public enum Gesture: String, CaseIterable, ExpressibleByArgument, Sendable {
        case tap
        case longPress = "long-press"
        case pan
    }

    @Argument(help: "The gesture to run on the demo card; without one, the hit-test trace.")
    public var gesture: Gesture?

    public init() {}

    public func run() throws {
        let output = MainActor.assumeIsolated { [gesture] in
            if let gesture { GestureTrace.run(gesture) } else { HitTestTrace.run() }
        }
        print(output, terminator: "")
    }
}
