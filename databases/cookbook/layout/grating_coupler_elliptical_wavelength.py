# ---
# title = "Focusing (elliptical) grating coupler for a chosen wavelength and fiber angle"
# summary = "Builds a focusing elliptical grating coupler (grating_coupler_elliptical) designed for a center wavelength in um, a fiber tilt angle in degrees and a number of grating periods; the teeth sit on WG 1/0 with a slab on 2/0. Port o1 is the waveguide side, o2 the fiber (vertical) port. For a straight-teeth grating use grating_coupler_rectangular."
# kind = "sandbox"
# tags = ["grating coupler", "fiber coupler", "elliptical grating", "focusing grating", "vertical coupling", "o-band", "wavelength"]
# apis = ["gdsfactory.components.grating_coupler_elliptical", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["gc_elliptical.gds"]
# cells = ["GC_1310"]
# layers = ["1/0", "2/0"]
# bbox = {"GC_1310" = [0.0, -11.577, 32.891, 11.577]}
# stdout = ["fiber port o2 (vertical_te)", "wavelength 1.31 um"]
# ---
import gdsfactory as gf

wavelength = 1.31     # um, design wavelength (O-band)
fiber_angle = 8.0     # degrees from vertical
n_periods = 25        # number of grating teeth
cell_name = "GC_1310"

gf.gpdk.PDK.activate()

gc = gf.components.grating_coupler_elliptical(wavelength=wavelength, fiber_angle=fiber_angle, n_periods=n_periods)
c = gf.Component(cell_name)
ref = c << gc
c.add_ports(ref.ports)
c.write_gds("gc_elliptical.gds", with_metadata=False)

fiber = c.ports["o2"]
print(f"{cell_name}: wavelength {wavelength} um, fiber port {fiber.name} ({fiber.port_type}), size {c.xsize:.2f} x {c.ysize:.2f} um")
