"""Fixes made on a script instead of costing a revision round: a 1.5B model asked to fix one of
these mistakes often breaks something else, or repeats the mistake for three rounds.

Four families, one module each:

- :mod:`.rules`: request-free certain fixes (``(code, mode) -> (code, description or None)``),
  :func:`apply_fixes` and :func:`request_free_fixes`, the one sequence that the pipeline and the
  Fix macro flow apply;
- :mod:`.findings`: fixes made from the static checks' findings;
- :mod:`.request_words`: fixes that read the request's words (layers, cells, files it names);
- :mod:`.run_proven`: fixes that a run's report proves; the caller runs the fixed script again.

:mod:`.source` holds the editing helpers they share.
"""
from .findings import (SANDBOX_IMPORTS, add_missing_imports, drop_imports_that_break_the_script, drop_invented_open_layout_lookups,
                       drop_undefined_unpacking, init_counters, make_regions_for_region_methods, make_regions_of_layer_operands, make_regions_of_shapes, use_the_defined_spelling, call_methods_read_as_values, use_the_box_sides, use_the_bare_global, spread_layer_pairs, advance_iterator_loops, drop_keywords_given_twice, use_the_classs_word, use_the_operator,
                       pdk_layer_names, quote_pdk_layer_names, rename_reordered_keywords, restore_example_definitions, use_the_global_that_has_it,
                       use_the_module_that_has_it)
from .request_words import (bind_named_layers, read_through_the_hierarchy, drop_foreign_parameters, bind_requested_layer, draw_in_the_active_cell, drop_reopened_layout, look_up_only_cells_that_exist,
                            name_the_new_layer, rebind_one_wrong_layer, save_the_report_database, use_the_named_variant, write_layout_by_suffix)
from .rules import (FIXES, apply_fixes, fix_alias_import, fix_component_added_as_reference, fix_reference_adding_its_own_ports, fix_cross_section_placed_as_a_component, fix_cell_placed_in_itself, fix_csv_writer_given_dicts, fix_function_never_called, fix_gds_layer_numbers_as_indexes, fix_point_tuples_in_shapes, fix_integer_displacements, fix_klayout_constants_without_their_class, fix_klayout_keyword_arguments, import_klayout_classes_from_klayout, fix_gdsfactory_int_layers, fix_iterator_next_outside_loop,
                    fix_klayout_submodule_names, fix_loop_variable_hiding_the_component, fix_objects_the_layout_makes, fix_pdk_activation, fix_pya_import_in_klayout, fix_floats_in_range, fix_write_gds_metadata, fix_star_import_of_klayout, repair_syntax,
                    request_free_fixes)
from .run_proven import (bind_the_requested_pitch, insert_the_built_shape, drop_printouts_of_unasked_layers, name_box_and_point_parts, write_the_missing_header, ask_the_bounding_box, make_a_region_for_the_region_method, make_regions_of_shape_operands, use_the_word_the_class_has, write_one_row_of_scalars, copy_the_locked_component, name_each_loop_component, bind_default_layer, concat_instead_of_append, drop_dataframe_index, unpack_points_by_coordinates, make_points_of_tuples, use_the_ports_center, bind_label_layer, call_methods_written_as_values, call_uncalled_methods, csv_column_renames, output_renames, rename_csv_columns, drop_extra_csv_columns, rename_json_keys, json_key_renames, rename_rdb_categories, rdb_category_renames,
                         rename_outputs, unscale_column, write_json_values_plainly, write_the_named_entry, write_the_nested_map)

__all__ = ["FIXES", "read_through_the_hierarchy", "insert_the_built_shape", "drop_printouts_of_unasked_layers", "advance_iterator_loops", "name_box_and_point_parts", "ask_the_bounding_box", "copy_the_locked_component", "concat_instead_of_append", "drop_dataframe_index", "SANDBOX_IMPORTS", "add_missing_imports", "apply_fixes", "bind_default_layer", "bind_label_layer", "bind_named_layers",
           "bind_requested_layer", "bind_the_requested_pitch", "call_methods_read_as_values", "call_methods_written_as_values", "call_uncalled_methods", "csv_column_renames", "draw_in_the_active_cell",
           "drop_foreign_parameters", "drop_imports_that_break_the_script", "drop_keywords_given_twice", "drop_invented_open_layout_lookups", "drop_reopened_layout", "drop_undefined_unpacking", "fix_alias_import", "fix_cell_placed_in_itself", "fix_csv_writer_given_dicts", "fix_function_never_called", "fix_gds_layer_numbers_as_indexes", "fix_point_tuples_in_shapes", "fix_integer_displacements", "fix_klayout_constants_without_their_class", "fix_klayout_keyword_arguments", "import_klayout_classes_from_klayout", "fix_component_added_as_reference", "fix_reference_adding_its_own_ports", "fix_cross_section_placed_as_a_component", "fix_gdsfactory_int_layers",
           "fix_iterator_next_outside_loop", "fix_klayout_submodule_names", "fix_loop_variable_hiding_the_component", "fix_objects_the_layout_makes", "fix_pdk_activation",
           "fix_pya_import_in_klayout", "fix_star_import_of_klayout", "fix_floats_in_range", "fix_write_gds_metadata", "init_counters", "look_up_only_cells_that_exist", "make_points_of_tuples", "make_a_region_for_the_region_method", "make_regions_of_shape_operands", "name_each_loop_component", "make_regions_for_region_methods", "make_regions_of_layer_operands", "make_regions_of_shapes", "name_the_new_layer", "output_renames", "pdk_layer_names",
           "quote_pdk_layer_names", "rebind_one_wrong_layer", "rename_csv_columns", "drop_extra_csv_columns", "rename_json_keys", "json_key_renames", "rename_rdb_categories", "rdb_category_renames", "rename_outputs",
           "rename_reordered_keywords", "save_the_report_database", "repair_syntax", "restore_example_definitions", "spread_layer_pairs", "request_free_fixes", "unpack_points_by_coordinates", "unscale_column", "use_the_bare_global", "use_the_box_sides", "use_the_classs_word", "use_the_defined_spelling", "use_the_global_that_has_it", "use_the_module_that_has_it", "use_the_named_variant", "use_the_operator", "use_the_ports_center", "use_the_word_the_class_has",
           "write_json_values_plainly", "write_the_named_entry", "write_the_nested_map", "write_one_row_of_scalars", "write_the_missing_header", "write_layout_by_suffix"]
