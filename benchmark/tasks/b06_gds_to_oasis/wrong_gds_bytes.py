import shutil

shutil.copy("in.gds", "out.oas")
