package io.slotkeeper.overview;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every target and slot at a glance, for the operator's page and for scripts.
 */
@RestController
@Tag(name = "overview", description = "Every target and slot at a glance, problems first")
class OverviewController {

	/**
	 * The most targets one page holds.
	 */
	static final int MAX_SIZE = 500;

	private final FleetOverview overview;

	OverviewController(FleetOverview overview) {
		this.overview = overview;
	}

	@GetMapping("/api/v1/overview")
	@Operation(summary = "Every target with its primary's slots, worst first, paged",
			description = "From the last heartbeat and slot poll of each target: no query to any target, so a down "
					+ "or hung one cannot hold it. Ordered down, warning, unknown, ok, then by name; counts are the "
					+ "whole fleet's whatever the filter. Each problem is said in words.")
	Overview overview(
			@Parameter(description = "page, from 0") @RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
			@Parameter(description = "targets per page") @RequestParam(
					defaultValue = "50") @Min(1) @Max(MAX_SIZE) int size,
			@Parameter(description = "part of a target's or slot's name, case ignored") @RequestParam(
					required = false) @Pattern(regexp = "^[A-Za-z0-9_.-]{0,63}$") String search,
			@Parameter(description = "only targets with a problem") @RequestParam(
					defaultValue = "false") boolean problemsOnly,
			@Parameter(description = "each slot's retained WAL over the last hour") @RequestParam(
					defaultValue = "false") boolean history) {
		return this.overview.page(new FleetOverview.Query(page, size, search, problemsOnly, history));
	}

}
