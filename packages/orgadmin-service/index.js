'use strict';
// The service's code ships in the orgadmin package (orgadmin/service); this package brings what it
// needs to run. Requiring it is the same as requiring orgadmin/service.
module.exports = require('orgadmin/service');
