# ---
# title = "Straight-teeth grating coupler with a chosen period and fill factor"
# summary = "Builds a rectangular (non-focusing) grating coupler: grating period in um, fill factor (etched fraction), number of periods and the length of the input taper in um. Use it when the grating must be simple to simulate or fabricate; the elliptical grating is shorter."
# kind = "sandbox"
# tags = ["grating coupler", "rectangular grating", "period", "fill factor", "duty cycle", "fiber coupler", "taper length"]
# apis = ["gdsfactory.components.grating_coupler_rectangular", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["gc_rect.gds"]
# cells = ["GC_RECT_P630"]
# layers = ["1/0", "2/0"]
# bbox = {"GC_RECT_P630" = [0.0, -6.5, 119.9, 6.5]}
# stdout = ["period 0.63 um", "grating length 18.90 um"]
# ---
import gdsfactory as gf

period = 0.63          # um
fill_factor = 0.5      # fraction of the period that is a tooth
n_periods = 30
length_taper = 100.0   # um, taper from the waveguide to the grating width
cell_name = "GC_RECT_P630"

gf.gpdk.PDK.activate()

gc = gf.components.grating_coupler_rectangular(period=period, fill_factor=fill_factor, n_periods=n_periods,
                                               length_taper=length_taper)
c = gf.Component(cell_name)
ref = c << gc
c.add_ports(ref.ports)
c.write_gds("gc_rect.gds", with_metadata=False)

print(f"{cell_name}: period {period} um, grating length {n_periods * period:.2f} um, size {c.xsize:.1f} x {c.ysize:.1f} um")
