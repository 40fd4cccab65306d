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

            With --json: every step of the same run as one JSON object per line \
            (HID event received, queued, each hitTest and point(inside:) with \
            its point and answer, the touch's view, recognizer changes with \
            their reasons, touch methods and what was passed to next, control \
            events and actions, layout, display, commit), as docs/trace.md \
            describes.
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

    @Flag(help: "Write every trace record as a JSON line instead of the article-style trace.")
    public var json = false

    public init() {}

    public func run() throws {
        let output = MainActor.assumeIsolated { [gesture, json] in
            if let gesture { GestureTrace.run(gesture, json: json) } else { HitTestTrace.run(json: json) }
        }
        print(output, terminator: "")
    }
}
