import CLinuxInput
import HID
#if canImport(Glibc)
import Glibc
#endif

/// The Linux frame buffer (`/dev/fb0`) as an output: frames are written
/// straight into the memory the display scans out.
///
/// The device says how it stores pixels (`FBIOGET_VSCREENINFO`: the visible
/// resolution, bits per pixel and each channel's bit field) and where
/// (`FBIOGET_FSCREENINFO`: the bytes from one line to the next and the
/// memory's size); the memory is mapped once. The screen's frame is scaled
/// to fit the visible area, keeping its shape, and centred on black.
///
/// There is no vsync here: the frame buffer device has no event to wait on,
/// so the server's frame clock paces it and a frame may be seen half
/// written for one refresh. The kernel's console may draw over it unless
/// the terminal is switched to graphics mode (`KDSETMODE`), which the
/// server does not do.
public final class FrameBufferDisplay: DisplayOutput {
    public let name: String
    public var fileDescriptor: Int32 { -1 }
    /// How the device stores its visible pixels, as it reported.
    public let layout: FrameBufferLayout

    private let descriptor: Int32
    private let memory: UnsafeMutableRawPointer
    private let memoryLength: Int
    private var converter: FrameConverter?

    /// Opens and maps the frame buffer device at `path` to show `screen`'s frames.
    public init(path: String = "/dev/fb0", screen: Screen) throws(DisplayError) {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .frameBufferUnavailable(path: path, reason: String(cString: strerror(errno)))
        }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard openuikit_fb_get_variable_info(descriptor, &variable) == 0, openuikit_fb_get_fixed_info(descriptor, &fixed) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .frameBufferUnavailable(path: path, reason: "it does not answer FBIOGET_VSCREENINFO/FSCREENINFO (\(reason)); it is not a frame buffer device")
        }
        let layout: FrameBufferLayout
        do {
            layout = try FrameBufferLayout(
                visibleWidth: Int(variable.xres), visibleHeight: Int(variable.yres),
                xOffset: Int(variable.xoffset), yOffset: Int(variable.yoffset),
                bitsPerPixel: Int(variable.bits_per_pixel), isGrayscale: variable.grayscale != 0,
                red: .init(variable.red), green: .init(variable.green), blue: .init(variable.blue), transparency: .init(variable.transp),
                lineLength: Int(fixed.line_length), memoryLength: Int(fixed.smem_len), visual: fixed.visual
            )
        } catch {
            close(descriptor)
            throw .unsupportedFrameBuffer(path: path, reason: error.reason)
        }
        guard let memory = mmap(nil, layout.memoryLength, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), memory != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .frameBufferUnavailable(path: path, reason: "mapping its \(layout.memoryLength) bytes failed (\(reason))")
        }
        self.descriptor = descriptor
        self.memory = memory
        memoryLength = layout.memoryLength
        self.layout = layout
        name = "\(path) (\(layout.visibleWidth)x\(layout.visibleHeight), \(layout.format))"
    }

    deinit {
        munmap(memory, memoryLength)
        close(descriptor)
    }

    public func show(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect]) {
        if converter == nil || converter?.sourceWidth != frame.width || converter?.sourceHeight != frame.height {
            guard frame.width > 0, frame.height > 0 else { return }
            converter = layout.converter(forFrameWidth: frame.width, height: frame.height)
        }
        guard let converter else { return }
        layout.write(frame, scrolls: scrolls, damage: damage, with: converter, into: memory)
    }

    public func setTitle(_ title: String) {}

    public func handleEvents() -> DisplayEvents { DisplayEvents() }
}

/// Where and how a frame buffer stores its visible pixels, from the
/// values the kernel reports; pure, so that formats no machine here has can
/// be tested.
public struct FrameBufferLayout: Equatable, Sendable {
    /// A colour channel's place, as `struct fb_bitfield`.
    public struct BitField: Equatable, Sendable {
        /// The channel's lowest bit and its width in bits.
        public var offset: Int
        public var length: Int
        /// Whether the channel's bits run the other way, which no driver in use does.
        public var isMostSignificantBitRight: Bool

        /// A bit field as `struct fb_bitfield` gives it.
        public init(offset: Int, length: Int, isMostSignificantBitRight: Bool = false) {
            self.offset = offset
            self.length = length
            self.isMostSignificantBitRight = isMostSignificantBitRight
        }

        init(_ field: fb_bitfield) {
            self.init(offset: Int(field.offset), length: Int(field.length), isMostSignificantBitRight: field.msb_right != 0)
        }
    }

    /// Why a layout cannot be written.
    public struct Unsupported: Error, Equatable {
        /// What about the device's layout the server cannot write.
        public let reason: String
    }

    /// The visible resolution (`xres`, `yres`).
    public let visibleWidth: Int
    public let visibleHeight: Int
    /// The visible area's first pixel in the memory (panning).
    public let xOffset: Int
    public let yOffset: Int
    /// How a pixel is stored, from the bit fields.
    public let format: PixelFormat
    /// Bytes from one line to the next (`line_length`), often more than the visible width needs.
    public let lineLength: Int
    /// The size of the device's memory (`smem_len`).
    public let memoryLength: Int

    /// `FB_VISUAL_TRUECOLOR` and `FB_VISUAL_DIRECTCOLOR`: pixels hold their
    /// colour; palette visuals are not written.
    static let colourVisuals: Set<UInt32> = [2, 4]

    /// The layout of a device from the values of `FBIOGET_VSCREENINFO` and
    /// `FBIOGET_FSCREENINFO`; throws, saying why, for one that cannot be written.
    public init(
        visibleWidth: Int, visibleHeight: Int, xOffset: Int = 0, yOffset: Int = 0,
        bitsPerPixel: Int, isGrayscale: Bool = false,
        red: BitField, green: BitField, blue: BitField, transparency: BitField = BitField(offset: 0, length: 0),
        lineLength: Int, memoryLength: Int, visual: UInt32 = 2
    ) throws(Unsupported) {
        guard Self.colourVisuals.contains(visual), !isGrayscale else {
            throw Unsupported(reason: "its visual (\(visual)\(isGrayscale ? ", grayscale" : "")) keeps a palette, not true colour")
        }
        guard ![red, green, blue, transparency].contains(where: \.isMostSignificantBitRight) else {
            throw Unsupported(reason: "its bit fields run most significant bit right")
        }
        var format = PixelFormat(
            bitsPerPixel: bitsPerPixel,
            red: .init(offset: red.offset, length: red.length),
            green: .init(offset: green.offset, length: green.length),
            blue: .init(offset: blue.offset, length: blue.length),
            alpha: transparency.length > 0 ? .init(offset: transparency.offset, length: transparency.length) : nil,
            isBigEndian: false
        )
        if let reason = format.unsupportedReason { throw Unsupported(reason: "its pixels are \(reason)") }
        if format.alpha?.length == 0 { format.alpha = nil }
        guard visibleWidth > 0, visibleHeight > 0 else {
            throw Unsupported(reason: "its visible area is \(visibleWidth)x\(visibleHeight)")
        }
        let lastByte = (yOffset + visibleHeight - 1) * lineLength + (xOffset + visibleWidth) * format.bytesPerPixel
        guard lineLength >= visibleWidth * format.bytesPerPixel, xOffset >= 0, yOffset >= 0, lastByte <= memoryLength else {
            throw Unsupported(reason: "its visible \(visibleWidth)x\(visibleHeight) pixels at (\(xOffset), \(yOffset)) with lines of \(lineLength) bytes do not fit its \(memoryLength) bytes of memory")
        }
        self.visibleWidth = visibleWidth
        self.visibleHeight = visibleHeight
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.format = format
        self.lineLength = lineLength
        self.memoryLength = memoryLength
    }

    /// Where a frame of `width` × `height` goes: scaled to fit the visible
    /// area with its shape kept, centred.
    public func placement(forFrameWidth width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let scale = min(Double(visibleWidth) / Double(width), Double(visibleHeight) / Double(height))
        let fittedWidth = min(max(1, Int((Double(width) * scale).rounded())), visibleWidth)
        let fittedHeight = min(max(1, Int((Double(height) * scale).rounded())), visibleHeight)
        return ((visibleWidth - fittedWidth) / 2, (visibleHeight - fittedHeight) / 2, fittedWidth, fittedHeight)
    }

    func converter(forFrameWidth width: Int, height: Int) -> FrameConverter {
        let place = placement(forFrameWidth: width, height: height)
        return FrameConverter(sourceWidth: width, sourceHeight: height, destinationWidth: place.width, destinationHeight: place.height, format: format)
    }

    /// Writes `frame` into the frame buffer memory at `memory`, which
    /// holds the frame before: `scrolls` moved there, then `damage` written.
    public func write(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll] = [], damage: [ServerMessage.PixelRect], into memory: UnsafeMutableRawPointer) {
        write(frame, scrolls: scrolls, damage: damage, with: converter(forFrameWidth: frame.width, height: frame.height), into: memory)
    }

    /// A scroll moves the device's own rows (`memmove`) where the scaling
    /// allows (``FrameConverter``), so a flung list converts only the rows
    /// it brought into view. The memory of the frame buffers this runs on
    /// is ordinary memory (a virtual console's, a Raspberry Pi's); a card
    /// whose memory is slow to read would rather keep a copy of its own.
    func write(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect], with converter: FrameConverter, into memory: UnsafeMutableRawPointer) {
        let place = placement(forFrameWidth: frame.width, height: frame.height)
        let origin = memory + (yOffset + place.y) * lineLength + (xOffset + place.x) * format.bytesPerPixel
        var stale: [ServerMessage.PixelRect] = []
        for scroll in scrolls {
            let (move, convert) = converter.screenMove(for: scroll)
            if let move {
                move.apply(to: origin, stride: lineLength, bytesPerPixel: format.bytesPerPixel)
                move.carry(&stale)
            }
            stale += convert
        }
        for rect in damage {
            if let target = converter.destinationRect(covering: rect) { stale.add(unlessCovered: target) }
        }
        for target in stale { converter.convert(frame, rect: target, into: origin, destinationStride: lineLength) }
    }
}
