package io.slotkeeper.api;

import java.io.IOException;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page, in place of Spring Boot's: a request that failed before any handler
 * answered it (Tomcat refusing {@code TRACE}, the firewall rejecting a path) is answered
 * as a problem too. It is written without content negotiation, so that a caller asking
 * for HTML still gets {@code application/problem+json}.
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

	@RequestMapping("${server.error.path:/error}")
	void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		int status = (code instanceof Integer value && value >= 400) ? value : 500;
		response.setStatus(status);
		response.setContentType(Problems.MEDIA_TYPE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter().write(Problems.forStatus(status));
	}

}
