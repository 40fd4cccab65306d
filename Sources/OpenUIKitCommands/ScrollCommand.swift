import ArgumentParser
import UIKit

/// `openuikit scroll [drag|fling|paging]`.
public struct ScrollCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "Scroll a demo list of 1,000 rows with a synthetic finger.",
        discussion: """
            Prints every finger step, every scroll view delegate call and the \
            content offset at every 60 Hz frame, with the time on the run \
            loop's clock. drag: a slow drag with a pause before release, then \
            a pull past the top that rubber-bands back. fling: a quick flick \
            that coasts to a stop. paging: the same flick with paging on.
            """
    )

    /// A scripted scrolling session.
    public enum Session: String, CaseIterable, ExpressibleByArgument, Sendable {
        case drag
        case fling
        case paging
    }

    @Argument(help: "The session to run.")
    public var session: Session = .fling

    public init() {}

    public func run() throws {
        let output = MainActor.assumeIsolated { [session] in ScrollSession.run(session) }
        print(output, terminator: "")
    }
}
