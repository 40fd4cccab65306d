import ArgumentParser
import EventServer
import HID

/// `openuikit apps`: the applications connected to the event server.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Lists the applications connected to the event server, the one in front first."
    )

    @OptionGroup var server: ServerSocketOption

    func run() throws {
        let reply = try ServerClient(path: server.socket, role: .control).request(.listApplications)
        guard case .applications(let rows) = reply else { throw ValidationError("the server answered \(reply)") }
        print(Self.table(rows), terminator: "")
    }

    /// One line per application, the foreground one first:
    /// `NAME  PID  STATE  UNACKNOWLEDGED`. Names are the applications'
    /// own choice, so their control characters are shown escaped.
    static func table(_ rows: [ServerMessage.ApplicationStatus]) -> String {
        let ordered = rows.filter(\.isForeground) + rows.filter { !$0.isForeground }
        let lines = [["NAME", "PID", "STATE", "UNACKNOWLEDGED"]] + ordered.map { row in
            let state = (row.isForeground ? "foreground" : "background") + (row.isResponding ? "" : ", not responding")
            return [row.name.escapedForDisplay, String(row.processIdentifier), state, String(row.unacknowledgedCount)]
        }
        let widths = (0..<4).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, text in
                column == 3 ? text : text + String(repeating: " ", count: widths[column] - text.count + 2)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }
}

/// `openuikit switch NAME`: brings an application to the front.
struct SwitchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Brings the named application to the front: its touches are cancelled in the one that was in front."
    )

    @Argument(help: "The application's name, as `openuikit apps` lists it.")
    var name: String

    @OptionGroup var server: ServerSocketOption

    func run() throws {
        switch try ServerClient(path: server.socket, role: .control).request(.switchTo(name)) {
        case .done: print("\(name.escapedForDisplay) is in front")
        case .failed(let why): throw ServerCommandError(message: why)
        case let other: throw ServerCommandError(message: "the server answered \(other)")
        }
    }
}

/// What the event server refused or answered amiss: said as it is (not as
/// a usage mistake, with the usage line after it), then the command exits
/// with status 1.
struct ServerCommandError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
