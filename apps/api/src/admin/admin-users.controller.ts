import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AccountsService, UsersService } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found } from '../admin-routes/admin-http-status';
import { newUserView, userView } from './admin-users.mapper';
import { CreateUserDto } from './dto/user.dto';

/** The people of an account (they sign in to the account area): add, list, remove. */
@AdminController()
export class AdminUsersController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
  ) {}

  @Post('accounts/:id/users')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a user (email unique in any case; password 12-256 characters)' })
  async create(@Param('id', ParseIdPipe) id: number, @Body() body: CreateUserDto) {
    return newUserView(await this.users.create(id, body.email, body.password));
  }

  @Get('accounts/:id/users')
  @ApiOperation({ summary: 'The account’s users' })
  async list(@Param('id', ParseIdPipe) id: number) {
    found(await this.accounts.find(id), 'Account');
    return (await this.users.list(id)).map(userView);
  }

  @Delete('users/:id')
  @ApiOperation({ summary: 'Remove a user; their sessions end at once' })
  async remove(@Param('id', ParseIdPipe) id: number) {
    return userView(found(await this.users.remove(id), 'User'));
  }
}
