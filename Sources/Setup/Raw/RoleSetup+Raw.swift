import Foundation
import PrinterLanguages
import RawPrinters
import PrintModel
import Store

/// `add` and `check` for raw printers (`socket://`, `usb://`, `serial://`):
/// the profile comes from the model catalog and the administrator's
/// overrides, since the printer cannot be asked what it can do; contacting
/// it means asking its status in its own language.
extension RoleSetup {
    /// Works out the raw printer's profile, checks it can serve `role`, asks
    /// its status and saves it. Unreachable is refused unless `force`, as for IPP.
    func addRaw(uri text: String, role: Role, as place: RolePlace, force: Bool, serviceName: String?,
                txt: TXTRecord?, model: String?, overrides: ProfileOverrides) async throws -> Added {
        let uri: RawPrinterURI
        do { uri = try RawPrinterURI(parsing: text) } catch { throw SetupError.invalidRawURI(error.description) }
        let profile = try rawProfile(for: uri, model: model, overrides: overrides)
        let described = profile.capabilities(name: serviceName ?? RawContact.name(for: profile, at: uri),
                                             location: txt?.location ?? "")
        // The profile says what it is for, so a wrong kind is refused before the printer is bothered.
        if !force, !role.accepts(described.kinds) {
            throw SetupError.wrongKinds(printer: described.name, kinds: described.kinds, kindsSource: described.kindsSource, role: role)
        }
        var overridden: [String] = []
        var capabilities = described
        do {
            capabilities = try await RawContact.contact(uri: uri, capabilities: described, profile: profile,
                                                        timeout: contactTimeout, usbPrinters: usbPrinters)
        } catch {
            guard force else { throw SetupError.refusedUnreachable(error.description) }
            overridden.append(error.description)
            capabilities.state = .unreachable
        }
        return try await save(uri: uri.description, capabilities: capabilities, role: role, as: place, force: force,
                              serviceName: serviceName, overridden: overridden)
    }

    /// The profile for `uri`: `model` (`--model`), else for a USB printer the
    /// `MDL:` of the connected device (or the model its URI names), with the
    /// overrides on top; the overrides alone for a model the catalog lacks.
    func rawProfile(for uri: RawPrinterURI, model: String?, overrides: ProfileOverrides) throws(SetupError) -> RawProfile {
        var deviceModel: String?
        if model == nil, case .usb(let identity) = uri {
            do {
                let connected = try usbPrinters.find(identity, for: uri)
                deviceModel = connected.deviceID.model ?? identity.model
            } catch {
                // Unplugged: the URI's model (CUPS writes the MDL there) may still name a catalog entry.
                guard ModelCatalog.entry(deviceModel: identity.model, dpi: overrides.dpi) != nil || overrides.canDescribe
                else { throw .unreachable(error.description + " Or give the printer's model with --model to save it unplugged.") }
                deviceModel = identity.model
            }
        }
        if model == nil, overrides.isEmpty,
           deviceModel.flatMap({ ModelCatalog.entry(deviceModel: $0, dpi: nil) }) == nil {
            throw .rawModelNeeded(uri: uri.description, deviceModel: deviceModel)
        }
        do {
            return try ModelCatalog.profile(model: model, deviceModel: deviceModel, overrides: overrides)
        } catch {
            throw .rawProfile(error.description)
        }
    }

    /// A saved raw printer contacted now: its saved profile, its status read.
    func contactSaved(raw printer: SavedPrinter, timeout: Duration) async -> Result<PrinterCapabilities, SetupError> {
        let uri: RawPrinterURI
        do { uri = try RawPrinterURI(parsing: printer.uri) } catch { return .failure(.unreachable(error.description)) }
        guard let profile = printer.capabilities.rawProfile else {
            return .failure(.unreachable("\(printer.name) (\(printer.uri)) was saved without its model, so its language "
                + "is not known. Save it again: kioskprint printers add \(printer.uri) --role ROLE --model MODEL "
                + "(or --language, --width, --printable and --dpi)."))
        }
        do {
            return .success(try await RawContact.contact(uri: uri, capabilities: printer.capabilities, profile: profile,
                                                         timeout: timeout, usbPrinters: usbPrinters))
        } catch {
            return .failure(.unreachable(error.description))
        }
    }
}

extension ProfileOverrides {
    /// True when the overrides describe a printer the catalog does not know.
    var canDescribe: Bool {
        language != nil && width != nil && dpi != nil && (language?.usualKind != .receipt || printableDots != nil)
    }
}
