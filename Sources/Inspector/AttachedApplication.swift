#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HID
import UIKit

/// An application inspected through the event server: the inspector's end
/// of `openuikit inspect --attach`. It is a client of the server in the
/// inspector role, which
///
/// - attaches to an application (by name, or the one in front); the server
///   lets only a process of that application's user do so;
/// - receives the application's texts (its tree, the trace of its events,
///   each touch's chain), sent in parts, put back together here;
/// - asks for the frames the server's display shows of it, one at a time,
///   each arriving as a sealed memfd that is drawn into a PNG at one pixel
///   per point;
/// - sends the page's touches to the server as input, as a touch screen's,
///   so that they take the application's real path (and go where the
///   screen's touches go: to the application in front).
@MainActor
final class AttachedApplication {
    /// What came from the server.
    enum Arrival: Equatable {
        /// Attached to this application.
        case attached(name: String, processIdentifier: Int32)
        /// One of the application's texts, whole.
        case text(String)
        /// A frame the display showed, as PNG.
        case frame(Data)
        /// A problem to tell the page; still attached.
        case problem(String)
        /// No longer attached (the application left, another inspector
        /// took over, no such application), for the reason given.
        case detached(String)
        /// The server refused this inspector, stopped or hung up: the
        /// connection is gone.
        case disconnected(String)
    }

    let socket: MessageSocket
    let welcome: ServerMessage.Welcome
    /// The application asked for: a name, or empty for the one in front.
    let applicationName: String
    /// The parts of the text being received.
    private var textBytes: [UInt8] = []
    private var isSkippingText = false
    private var isDisconnected = false
    private var nextSequence: UInt64 = 1
    private let packetEncoder = HIDPacketEncoder()

    /// A text longer than this is dropped, with a problem reported: the
    /// 10,000-view tree is 3 MB.
    static let maximumTextLength = 64 << 20
    /// How long the hello and each send may wait.
    static let timeout = 5.0

    /// Connects to the server at `path` (once it is known to be this
    /// user's) and asks to inspect `applicationName` (empty: the one in front).
    init(serverPath: String, applicationName: String, trust: ServerTrust = .fromEnvironment()) throws {
        let socket: MessageSocket
        do {
            socket = try MessageSocket.connectToServer(at: serverPath, trust: trust)
        } catch {
            if case .connect(_, let code) = error, code == ENOENT || code == ECONNREFUSED {
                throw InspectorError("no event server is listening at \(serverPath) (start openuikit-server, or name its socket with --socket)")
            }
            throw InspectorError("cannot reach the event server at \(serverPath): \(error)")
        }
        do {
            welcome = try socket.greet(.init(role: .inspector, processIdentifier: getpid(), name: "openuikit inspect"), timeout: Self.timeout)
        } catch {
            socket.close()
            throw InspectorError("the event server at \(serverPath) did not take the inspector: \(error)")
        }
        self.socket = socket
        self.applicationName = applicationName
        try send(.inspectRequest(.attach(applicationName)))
    }

    var fileDescriptor: Int32 { socket.fileDescriptor }

    /// The screen in points, from the server's welcome.
    var screenSize: CGSize { CGSize(width: welcome.screenWidth, height: welcome.screenHeight) }

    // MARK: Requests

    func requestTree() throws { try send(.inspectRequest(.tree)) }
    func requestFrame() throws { try send(.inspectRequest(.frame)) }
    /// Asks again for the application (after it left, say).
    func attachAgain() throws { try send(.inspectRequest(.attach(applicationName))) }

    /// One digitizer frame of the page's fingers, as input to the server.
    func inject(_ contacts: [DigitizerContact]) throws {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: contacts))
        try sendBytes(ServerMessage.encodeEvent(sequence: nextSequence, readTime: 0, sendTime: 0, event: event, encoder: packetEncoder))
        nextSequence += 1
    }

    private func send(_ message: ServerMessage) throws {
        try sendBytes(message.encoded())
    }

    private func sendBytes(_ bytes: [UInt8]) throws {
        guard !isDisconnected else { throw InspectorError("the event server is gone") }
        do {
            try socket.sendWaiting(bytes, timeout: Self.timeout)
        } catch {
            throw InspectorError("cannot send to the event server: \(error)")
        }
    }

    // MARK: Arrivals

    /// Everything the server sent that is waiting, without blocking.
    func receive() -> [Arrival] {
        var arrivals: [Arrival] = []
        while !isDisconnected {
            let received: (Result<ServerMessage, ServerProtocolError>, Int32?)?
            do {
                received = try socket.receiveMessageWithDescriptor()
            } catch .peerClosed {
                arrivals.append(disconnect("the event server hung up"))
                break
            } catch {
                arrivals.append(disconnect("the connection to the event server failed: \(error)"))
                break
            }
            guard let (result, descriptor) = received else { break }
            switch result {
            case .success(.inspectorFrame(let frame)):
                guard let descriptor else {
                    arrivals.append(.problem("the event server sent a frame without its pixels"))
                    continue
                }
                arrivals.append(picture(of: frame, descriptor: descriptor))
            case .success(let message):
                if let descriptor { close(descriptor) }
                if let arrival = take(message) { arrivals.append(arrival) }
            case .failure(let error):
                if let descriptor { close(descriptor) }
                arrivals.append(.problem("the event server sent a message that does not read (\(error)); skipped"))
            }
        }
        return arrivals
    }

    private func take(_ message: ServerMessage) -> Arrival? {
        switch message {
        case .inspectorReport(let report):
            return takePart(report)
        case .inspectorStatus(.attached(_, let pid, let name)):
            textBytes = []
            isSkippingText = false
            return .attached(name: name, processIdentifier: pid)
        case .inspectorStatus(.detached(let why)):
            textBytes = []
            isSkippingText = false
            return .detached(why)
        case .inspectorStatus(.skipped(let why)):
            // The server skipped a part: the text it belonged to is cut.
            textBytes = []
            isSkippingText = false
            return .problem(why)
        case .error(let error):
            return disconnect("the event server refused the inspector: \(error.message)")
        case .shutdown:
            return disconnect("the event server stopped")
        default:
            return .problem("the event server sent an unexpected \(message)")
        }
    }

    /// Joins a report's part to the text it belongs to; the text once whole.
    private func takePart(_ report: ServerMessage.InspectorReport) -> Arrival? {
        if isSkippingText {
            if report.isLastPart { isSkippingText = false }
            return nil
        }
        guard textBytes.count + report.bytes.count <= Self.maximumTextLength else {
            textBytes = []
            isSkippingText = !report.isLastPart
            return .problem("the application sent a text longer than \(Self.maximumTextLength >> 20) MB; it was dropped")
        }
        textBytes += report.bytes
        guard report.isLastPart else { return nil }
        defer { textBytes = [] }
        guard let text = String(validating: textBytes, as: UTF8.self) else {
            return .problem("the application sent a text that is not UTF-8 (\(textBytes.count) bytes); it was dropped")
        }
        return .text(text)
    }

    /// Draws a frame the server sent into a PNG of one pixel per point.
    private func picture(of frame: ServerMessage.InspectorFrame, descriptor: Int32) -> Arrival {
        let buffer: SharedFrameBuffer
        do {
            buffer = try SharedFrameBuffer(receiving: frame.attachment, descriptor: descriptor)
        } catch {
            return .problem("the event server sent a frame that cannot be read: \(error)")
        }
        let scale = max(1, Int(welcome.screenScale.rounded()))
        let width = buffer.width / scale, height = buffer.height / scale
        guard width > 0, height > 0,
              let png = FramePicture.png(width: width, height: height, fill: { destination in
                  FramePicture.shrink(buffer.pixels, stride: buffer.stride, by: scale, into: destination, width: width, height: height)
              }) else {
            return .problem("the frame could not be drawn")
        }
        return .frame(png)
    }

    private func disconnect(_ why: String) -> Arrival {
        isDisconnected = true
        socket.close()
        return .disconnected(why)
    }
}
