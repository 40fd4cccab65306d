/// A key of a hardware keyboard, as pressed: which key, the modifier keys
/// held with it, and the text it types.
///
/// Text follows a US layout. Keys that type no text have UIKit's input
/// strings: `"UIKeyInputUpArrow"` and the other arrows, `"UIKeyInputEscape"`,
/// `"UIKeyInputHome"`, `"UIKeyInputEnd"`, `"UIKeyInputPageUp"`,
/// `"UIKeyInputPageDown"`, `"UIKeyInputDelete"` (forward delete); modifier
/// keys type nothing (`""`).
public final class UIKey: Sendable {
    /// The text the key types with its modifiers (Shift, Caps Lock) applied.
    public let characters: String
    /// The text the key types with no modifier applied.
    public let charactersIgnoringModifiers: String
    public let modifierFlags: UIKeyModifierFlags
    public let keyCode: UIKeyboardHIDUsage

    init(keyCode: UIKeyboardHIDUsage, modifierFlags: UIKeyModifierFlags) {
        self.keyCode = keyCode
        self.modifierFlags = modifierFlags
        let (plain, shifted) = Self.text(of: keyCode)
        let isLetter = (UIKeyboardHIDUsage.keyboardA.rawValue...UIKeyboardHIDUsage.keyboardZ.rawValue).contains(keyCode.rawValue)
        // Caps Lock shifts letters only; Shift shifts every key (and unshifts letters under Caps Lock).
        let shift = modifierFlags.contains(.shift) != (isLetter && modifierFlags.contains(.alphaShift))
        characters = shift ? shifted : plain
        charactersIgnoringModifiers = plain
    }

    /// What a key types on a US layout, unshifted and shifted.
    private static func text(of key: UIKeyboardHIDUsage) -> (String, String) {
        let usage = key.rawValue
        switch usage {
        case UIKeyboardHIDUsage.keyboardA.rawValue...UIKeyboardHIDUsage.keyboardZ.rawValue:
            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(usage - UIKeyboardHIDUsage.keyboardA.rawValue)))
            return (letter, letter.uppercased())
        case UIKeyboardHIDUsage.keyboard1.rawValue...UIKeyboardHIDUsage.keyboardSlash.rawValue:
            let index = usage - UIKeyboardHIDUsage.keyboard1.rawValue
            return (usTextRow[index], usShiftedTextRow[index])
        default:
            let input = specialKeyInput[key] ?? ""
            return (input, input)
        }
    }

    /// The keys from `keyboard1` (0x1E) to `keyboardSlash` (0x38), in usage
    /// order; 0x32 is the non-US `#`, which a US layout types as `\`.
    private static let usTextRow = [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "\r", "UIKeyInputEscape", "\u{8}", "\t", " ",
        "-", "=", "[", "]", "\\", "\\", ";", "'", "`", ",", ".", "/",
    ]
    private static let usShiftedTextRow = [
        "!", "@", "#", "$", "%", "^", "&", "*", "(", ")", "\r", "UIKeyInputEscape", "\u{8}", "\t", " ",
        "_", "+", "{", "}", "|", "|", ":", "\"", "~", "<", ">", "?",
    ]
    private static let specialKeyInput: [UIKeyboardHIDUsage: String] = [
        .keyboardHome: "UIKeyInputHome", .keyboardPageUp: "UIKeyInputPageUp",
        .keyboardDeleteForward: "UIKeyInputDelete", .keyboardEnd: "UIKeyInputEnd",
        .keyboardPageDown: "UIKeyInputPageDown", .keyboardRightArrow: "UIKeyInputRightArrow",
        .keyboardLeftArrow: "UIKeyInputLeftArrow", .keyboardDownArrow: "UIKeyInputDownArrow",
        .keyboardUpArrow: "UIKeyInputUpArrow",
    ]
}

/// The modifier keys held with a key. The raw values are UIKit's, and are
/// what the `modifierFlags` field of a HID button event carries; other bits
/// are ignored.
public struct UIKeyModifierFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Caps Lock.
    public static let alphaShift = UIKeyModifierFlags(rawValue: 1 << 16)
    public static let shift = UIKeyModifierFlags(rawValue: 1 << 17)
    public static let control = UIKeyModifierFlags(rawValue: 1 << 18)
    /// Option (Alt).
    public static let alternate = UIKeyModifierFlags(rawValue: 1 << 19)
    public static let command = UIKeyModifierFlags(rawValue: 1 << 20)
    public static let numericPad = UIKeyModifierFlags(rawValue: 1 << 21)

    /// Every flag above.
    static let all: UIKeyModifierFlags = [.alphaShift, .shift, .control, .alternate, .command, .numericPad]
}

/// A key of a hardware keyboard, by its USB HID usage on the keyboard page
/// (0x07). The named values are UIKit's names for the usages; as with
/// UIKit's imported C enumeration, any raw value is valid.
public struct UIKeyboardHIDUsage: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int

    /// Always succeeds: every usage is a key.
    public init?(rawValue: Int) {
        self.rawValue = rawValue
    }

    private init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let keyboardA = UIKeyboardHIDUsage(0x04)
    public static let keyboardB = UIKeyboardHIDUsage(0x05)
    public static let keyboardC = UIKeyboardHIDUsage(0x06)
    public static let keyboardD = UIKeyboardHIDUsage(0x07)
    public static let keyboardE = UIKeyboardHIDUsage(0x08)
    public static let keyboardF = UIKeyboardHIDUsage(0x09)
    public static let keyboardG = UIKeyboardHIDUsage(0x0A)
    public static let keyboardH = UIKeyboardHIDUsage(0x0B)
    public static let keyboardI = UIKeyboardHIDUsage(0x0C)
    public static let keyboardJ = UIKeyboardHIDUsage(0x0D)
    public static let keyboardK = UIKeyboardHIDUsage(0x0E)
    public static let keyboardL = UIKeyboardHIDUsage(0x0F)
    public static let keyboardM = UIKeyboardHIDUsage(0x10)
    public static let keyboardN = UIKeyboardHIDUsage(0x11)
    public static let keyboardO = UIKeyboardHIDUsage(0x12)
    public static let keyboardP = UIKeyboardHIDUsage(0x13)
    public static let keyboardQ = UIKeyboardHIDUsage(0x14)
    public static let keyboardR = UIKeyboardHIDUsage(0x15)
    public static let keyboardS = UIKeyboardHIDUsage(0x16)
    public static let keyboardT = UIKeyboardHIDUsage(0x17)
    public static let keyboardU = UIKeyboardHIDUsage(0x18)
    public static let keyboardV = UIKeyboardHIDUsage(0x19)
    public static let keyboardW = UIKeyboardHIDUsage(0x1A)
    public static let keyboardX = UIKeyboardHIDUsage(0x1B)
    public static let keyboardY = UIKeyboardHIDUsage(0x1C)
    public static let keyboardZ = UIKeyboardHIDUsage(0x1D)
    public static let keyboard1 = UIKeyboardHIDUsage(0x1E)
    public static let keyboard2 = UIKeyboardHIDUsage(0x1F)
    public static let keyboard3 = UIKeyboardHIDUsage(0x20)
    public static let keyboard4 = UIKeyboardHIDUsage(0x21)
    public static let keyboard5 = UIKeyboardHIDUsage(0x22)
    public static let keyboard6 = UIKeyboardHIDUsage(0x23)
    public static let keyboard7 = UIKeyboardHIDUsage(0x24)
    public static let keyboard8 = UIKeyboardHIDUsage(0x25)
    public static let keyboard9 = UIKeyboardHIDUsage(0x26)
    public static let keyboard0 = UIKeyboardHIDUsage(0x27)
    public static let keyboardReturnOrEnter = UIKeyboardHIDUsage(0x28)
    public static let keyboardEscape = UIKeyboardHIDUsage(0x29)
    public static let keyboardDeleteOrBackspace = UIKeyboardHIDUsage(0x2A)
    public static let keyboardTab = UIKeyboardHIDUsage(0x2B)
    public static let keyboardSpacebar = UIKeyboardHIDUsage(0x2C)
    public static let keyboardHyphen = UIKeyboardHIDUsage(0x2D)
    public static let keyboardEqualSign = UIKeyboardHIDUsage(0x2E)
    public static let keyboardOpenBracket = UIKeyboardHIDUsage(0x2F)
    public static let keyboardCloseBracket = UIKeyboardHIDUsage(0x30)
    public static let keyboardBackslash = UIKeyboardHIDUsage(0x31)
    public static let keyboardNonUSPound = UIKeyboardHIDUsage(0x32)
    public static let keyboardSemicolon = UIKeyboardHIDUsage(0x33)
    public static let keyboardQuote = UIKeyboardHIDUsage(0x34)
    public static let keyboardGraveAccentAndTilde = UIKeyboardHIDUsage(0x35)
    public static let keyboardComma = UIKeyboardHIDUsage(0x36)
    public static let keyboardPeriod = UIKeyboardHIDUsage(0x37)
    public static let keyboardSlash = UIKeyboardHIDUsage(0x38)
    public static let keyboardCapsLock = UIKeyboardHIDUsage(0x39)
    public static let keyboardHome = UIKeyboardHIDUsage(0x4A)
    public static let keyboardPageUp = UIKeyboardHIDUsage(0x4B)
    public static let keyboardDeleteForward = UIKeyboardHIDUsage(0x4C)
    public static let keyboardEnd = UIKeyboardHIDUsage(0x4D)
    public static let keyboardPageDown = UIKeyboardHIDUsage(0x4E)
    public static let keyboardRightArrow = UIKeyboardHIDUsage(0x4F)
    public static let keyboardLeftArrow = UIKeyboardHIDUsage(0x50)
    public static let keyboardDownArrow = UIKeyboardHIDUsage(0x51)
    public static let keyboardUpArrow = UIKeyboardHIDUsage(0x52)
    public static let keyboardLeftControl = UIKeyboardHIDUsage(0xE0)
    public static let keyboardLeftShift = UIKeyboardHIDUsage(0xE1)
    public static let keyboardLeftAlt = UIKeyboardHIDUsage(0xE2)
    public static let keyboardLeftGUI = UIKeyboardHIDUsage(0xE3)
    public static let keyboardRightControl = UIKeyboardHIDUsage(0xE4)
    public static let keyboardRightShift = UIKeyboardHIDUsage(0xE5)
    public static let keyboardRightAlt = UIKeyboardHIDUsage(0xE6)
    public static let keyboardRightGUI = UIKeyboardHIDUsage(0xE7)
}
